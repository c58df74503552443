//! JSON Schemas (draft-07) for the pack file format, generated from [`crate::model`].
//! Editors validate and complete pack files with them through a `#:schema` line; the
//! committed copies in `schema/json/` are checked against these by a test.

use schemars::Schema;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;

use crate::model::PackFile;

/// Each schema's file name and its text (pretty JSON, ending in a newline).
pub fn schemas() -> Vec<(&'static str, String)> {
    vec![("pack.schema.json", render(pack_schema()))]
}

/// The schema of one pack file (a root file or an included one).
pub fn pack_schema() -> Schema {
    let settings = SchemaSettings::draft07().with_transform(RecursiveTransform(drop_null));
    settings.into_generator().into_root_schema_for::<PackFile>()
}

fn render(schema: Schema) -> String {
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// TOML has no null, and an absent key is how a pack leaves a field out: optional fields
/// should not advertise `null` to editors.
fn drop_null(schema: &mut Schema) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    if let Some(serde_json::Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            obj.insert("type".into(), only);
        }
    }
    if let Some(serde_json::Value::Array(options)) = obj.get_mut("anyOf") {
        options.retain(|o| o.get("type").is_none_or(|t| t != "null"));
        if let [only] = options.as_slice() {
            let only = only.clone();
            obj.remove("anyOf");
            if let serde_json::Value::Object(fields) = only {
                obj.extend(fields);
            }
        }
    }
}
