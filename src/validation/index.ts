export { ItemValidationPipeline, VALIDATION_FIELD, describeIssues, type ValidationFailures } from './item-validation-pipeline.js';
export { isItemSchema, itemSchemaOf, type ItemSchema, type ItemSchemaIssue, type ItemSchemaResult, type ValidationIssue } from './item-schema.js';
export { validationSamplesOf, type ValidationSample } from './validation-samples.js';
