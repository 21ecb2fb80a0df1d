export { AdaptiveRenderingMiddleware, type PlainResult, type RenderAwareSpider } from './adaptive-rendering-middleware.js';
export { RenderingPredictor } from './rendering-predictor.js';
export { AUTO_STATS } from './auto-stats.js';
export { pageKindOf } from './page-kind.js';
export { adaptiveWants } from './adaptive-wants.js';
