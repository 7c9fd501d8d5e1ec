// Converting datasets.
export { convertDataset, datasetAdapter, type ConvertDatasetOptions, type ConvertSummary } from './convert/convert-dataset';
export { convertRecords, type MapResult } from './convert/convert-records';

// The adapters and their registry.
export { DATASET_ADAPTERS, findDatasetAdapter, listDatasetAdapters, normalizeDatasetName } from './dataset-adapters';
export type { AdapterContext, ConvertItem, DatasetAdapter, DraftImage, FilteredOut, TaskDraft } from './dataset-adapter';
export { aOkvqaAdapter } from './adapters/a-okvqa-adapter';
export { ai2dAdapter } from './adapters/ai2d-adapter';
export { blinkAdapter } from './adapters/blink-adapter';
export { chartQaAdapter } from './adapters/chart-qa-adapter';
export { clevrAdapter } from './adapters/clevr-adapter';
export { clevrMathAdapter } from './adapters/clevr-math-adapter';
export { docVqaAdapter } from './adapters/doc-vqa-adapter';
export { figureQaAdapter } from './adapters/figure-qa-adapter';
export { geoQaAdapter } from './adapters/geo-qa-adapter';
export { geometry3kAdapter } from './adapters/geometry3k-adapter';
export { iconQaAdapter } from './adapters/icon-qa-adapter';
export { infographicVqaAdapter } from './adapters/infographic-vqa-adapter';
export { llavaAdapter } from './adapters/llava-adapter';
export { mapQaAdapter } from './adapters/map-qa-adapter';
export { mathVistaAdapter } from './adapters/math-vista-adapter';
export { plotQaAdapter } from './adapters/plot-qa-adapter';
export { satAdapter } from './adapters/sat-adapter';
export { scienceQaAdapter } from './adapters/science-qa-adapter';
export { screenSpotAdapter } from './adapters/screen-spot-adapter';
export { tabMwpAdapter } from './adapters/tab-mwp-adapter';
export { uniGeoAdapter } from './adapters/uni-geo-adapter';
export { vStarBenchAdapter } from './adapters/v-star-bench-adapter';
export { vizWizAdapter } from './adapters/viz-wiz-adapter';
export { vlmgymAdapter } from './adapters/vlmgym-adapter';

// Building blocks for new adapters.
export { DatasetFormatError, describeLocation, describeValue, type SourceLocation } from './dataset-format-error';
export { RecordFields } from './record-fields';
export { inferAnswerType, letterIndex, multipleChoice, optionIndex, type MultipleChoice } from './answers';
export { imageAt, imageFile, saveEmbeddedImage } from './images';
export { documentRecords } from './readers/document-records';
export { jsonFileRecords, naturalSort, problemFolderRecords } from './readers/folder-records';
export { jsonOrJsonlRecords } from './readers/json-or-jsonl-records';
export { readJsonDocument } from './readers/read-json-document';
export { readJsonlRecords } from './readers/read-jsonl-records';
export { readParquetRecords } from './readers/read-parquet-records';
export { parquetInputRecords } from './readers/parquet-input-records';
export { parsePickle, readPickle, type PickledArray } from './readers/read-pickle';
export { arrayRecords, keyedRecords, type SourceRecord } from './readers/source-record';

// Export to trainers.
export { exportVerlParquet, type ExportSummary, type ExportVerlParquetOptions } from './export/export-verl-parquet';
export { answerText, verlRow, type VerlRow, type VerlRowOptions } from './export/verl-row';
export { exportVagenDataset, readVagenEnvConfig, vagenDatasetRows, type ExportVagenDatasetOptions, type VagenEnvEntry, type VagenRow } from './export/export-vagen-dataset';
export { PythonRandom, vagenSeeds } from './export/python-random';
