export {
  DEFAULT_MAX_PIXELS,
  IMAGE_MEDIA_TYPES,
  isEncodedImage,
  isRawImage,
  type EncodedImage,
  type ImageMediaType,
  type ImageSource,
  type OutputOptions,
  type RawImage,
  type ReadOptions,
} from './encoded-image.js';
export { InvalidImageError, type InvalidImageErrorOptions, type InvalidImageReason } from './invalid-image-error.js';
export { InvalidImageArgumentError, type InvalidImageArgumentErrorOptions } from './invalid-image-argument-error.js';
export { sniffMediaType } from './sniff-media-type.js';
export { fromDataUrl, toDataUrl } from './data-url.js';
export { loadImage, type LoadImageOptions } from './load-image.js';
export { decodeImage, type DecodeImageOptions } from './decode-image.js';
export { encodeImage, encodeJpeg, encodePng, encodeWebp } from './encode-image.js';
export { imageMetadata, imageSize, recordedImageSize, type ImageMetadata } from './image-metadata.js';
export { clipBox, type Box } from './clip-box.js';
export { connectedComponents, type ConnectedComponent } from './connected-components.js';
export { crop, type CropOptions } from './crop.js';
export { resize, type ResizeFit, type ResizeKernel, type ResizeOptions, type ResizeSpec } from './resize.js';
export { resizeBilinear } from './resize-bilinear.js';
export { averagePixels } from './average-pixels.js';
export {
  QWEN25_VL_MAX_PIXELS,
  QWEN25_VL_MIN_PIXELS,
  SMART_RESIZE_MAX_ASPECT_RATIO,
  smartResize,
  smartResizeImage,
  type SmartResizeImageOptions,
  type SmartResizeOptions,
} from './smart-resize.js';
export { rotate, type RotateOptions } from './rotate.js';
export { drawPoints, type Point } from './draw-points.js';
export { drawBoxes, type DrawBoxesOptions, type LabelledBox } from './draw-boxes.js';
export { compose, type ComposeOptions, type Layer } from './compose.js';
export { checkSvgReferences, renderSvg, type RenderSvgOptions } from './render-svg.js';
export { contentHash, pixelHash } from './content-hash.js';
export {
  CLIP_NORMALIZATION,
  IMAGENET_NORMALIZATION,
  toTensor,
  type Normalization,
  type TensorFlowLike,
  type ToTensorOptions,
} from './to-tensor.js';
export { fromTensor, type FromTensorOptions } from './from-tensor.js';
