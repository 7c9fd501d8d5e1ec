import { aOkvqaAdapter } from './adapters/a-okvqa-adapter';
import { ai2dAdapter } from './adapters/ai2d-adapter';
import { blinkAdapter } from './adapters/blink-adapter';
import { chartQaAdapter } from './adapters/chart-qa-adapter';
import { clevrAdapter } from './adapters/clevr-adapter';
import { clevrMathAdapter } from './adapters/clevr-math-adapter';
import { docVqaAdapter } from './adapters/doc-vqa-adapter';
import { figureQaAdapter } from './adapters/figure-qa-adapter';
import { geoQaAdapter } from './adapters/geo-qa-adapter';
import { geometry3kAdapter } from './adapters/geometry3k-adapter';
import { iconQaAdapter } from './adapters/icon-qa-adapter';
import { infographicVqaAdapter } from './adapters/infographic-vqa-adapter';
import { llavaAdapter } from './adapters/llava-adapter';
import { mapQaAdapter } from './adapters/map-qa-adapter';
import { mathVistaAdapter } from './adapters/math-vista-adapter';
import { plotQaAdapter } from './adapters/plot-qa-adapter';
import { satAdapter } from './adapters/sat-adapter';
import { scienceQaAdapter } from './adapters/science-qa-adapter';
import { screenSpotAdapter } from './adapters/screen-spot-adapter';
import { tabMwpAdapter } from './adapters/tab-mwp-adapter';
import { uniGeoAdapter } from './adapters/uni-geo-adapter';
import { vStarBenchAdapter } from './adapters/v-star-bench-adapter';
import { vizWizAdapter } from './adapters/viz-wiz-adapter';
import { vlmgymAdapter } from './adapters/vlmgym-adapter';
import type { DatasetAdapter } from './dataset-adapter';

/** Every adapter, keyed by the dataset's name. */
export const DATASET_ADAPTERS: Readonly<Record<string, DatasetAdapter>> = Object.fromEntries(
  [
    chartQaAdapter,
    plotQaAdapter,
    figureQaAdapter,
    geometry3kAdapter,
    geoQaAdapter,
    uniGeoAdapter,
    mapQaAdapter,
    docVqaAdapter,
    infographicVqaAdapter,
    scienceQaAdapter,
    ai2dAdapter,
    vizWizAdapter,
    clevrAdapter,
    clevrMathAdapter,
    aOkvqaAdapter,
    tabMwpAdapter,
    iconQaAdapter,
    mathVistaAdapter,
    vStarBenchAdapter,
    blinkAdapter,
    satAdapter,
    screenSpotAdapter,
    vlmgymAdapter,
    llavaAdapter,
  ].map((adapter) => [adapter.name, adapter]),
);

/** A dataset name as the CLI matches it: lower case, letters, digits and `*` only (`CLEVR-Math` = `clevr_math` = `clevrmath`). */
export const normalizeDatasetName = (name: string): string => name.toLowerCase().replace(/[^a-z0-9*]/g, '');

/** The adapter for a name or alias, ignoring case and punctuation; undefined when none. */
export function findDatasetAdapter(name: string): DatasetAdapter | undefined {
  const wanted = normalizeDatasetName(name);
  return Object.values(DATASET_ADAPTERS).find((adapter) => [adapter.name, ...adapter.aliases].some((candidate) => normalizeDatasetName(candidate) === wanted));
}

/** The adapters in registry order. */
export function listDatasetAdapters(): DatasetAdapter[] {
  return Object.values(DATASET_ADAPTERS);
}
