//! grail-schema: the content data model, loading, linting and JSON Schema generation.
