//! The committed JSON Schemas are what the code generates, and every bundled TOML file points
//! its editor at the pack schema with a correct relative `#:schema` path.

use std::path::{Path, PathBuf};

use grail_schema::json_schema::schemas;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn committed_schemas_are_fresh() {
    for (name, generated) in schemas() {
        let path = repo().join("schema/json").join(name);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "schema/json/{name} is stale: run `grail schema --out schema/json` (or \
             `cargo run -- schema --out schema/json`) and commit the result"
        );
    }
}

fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            toml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

#[test]
fn bundled_toml_files_declare_the_pack_schema() {
    let mut files = Vec::new();
    toml_files(&repo().join("content"), &mut files);
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let first = text.lines().next().unwrap_or("");
        let target = first
            .strip_prefix("#:schema ")
            .unwrap_or_else(|| panic!("{} does not start with a #:schema line", file.display()));
        let schema = file.parent().unwrap().join(target);
        let expected = repo().join("schema/json/pack.schema.json");
        assert_eq!(
            schema.canonicalize().ok(),
            expected.canonicalize().ok(),
            "{}: `{first}` does not lead to schema/json/pack.schema.json",
            file.display()
        );
    }
}

/// The schema describes what the loader accepts: the pack file keys it lists are the keys
/// the decoder takes.
#[test]
fn schema_lists_the_keys_the_loader_accepts() {
    let schema = serde_json::to_value(grail_schema::json_schema::pack_schema()).unwrap();
    let keys = |v: &serde_json::Value| -> Vec<String> {
        let mut k: Vec<String> = v["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        k.sort();
        k
    };
    let defs = &schema["definitions"];
    let mut card_fields: Vec<String> = grail_schema::decode::CARD_FIELDS
        .iter()
        .map(|s| s.to_string())
        .collect();
    card_fields.sort();
    assert_eq!(keys(&defs["CardDef"]), card_fields);
    assert_eq!(
        keys(&schema),
        [
            "actions",
            "bot",
            "checks",
            "conditions",
            "counters",
            "end",
            "endings",
            "expressions",
            "figures",
            "pack",
            "params",
            "queries",
            "roles",
            "sets",
            "setup",
            "stages",
            "steps",
            "texts",
            "zones"
        ]
    );
    assert_eq!(
        keys(&defs["PackHeader"]),
        [
            "description",
            "extends",
            "id",
            "include",
            "name",
            "players",
            "rules",
            "scoring"
        ]
    );
    assert_eq!(
        keys(&defs["SetDef"]),
        [
            "attributes",
            "cards",
            "condition_over",
            "legend",
            "name",
            "product",
            "total",
            "value",
            "when_over"
        ]
    );
    assert_eq!(
        defs["CardDef"]["additionalProperties"]["$ref"],
        "#/definitions/AttrValue"
    );
    assert_eq!(defs["SetDef"]["additionalProperties"], false);
}
