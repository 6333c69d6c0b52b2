//! Kubewarden's policy metadata in the policy module: the `io.kubewarden.metadata` custom
//! section that `kwctl annotate` writes and a policy-server reads before it loads a waPC module
//! (without it: "missing protocol version"). Its content is the metadata file (`rules`,
//! `mutating`, `executionMode`, ...: Kubewarden's camelCase keys) as JSON, plus
//! `"protocolVersion": "v1"`.

use serde_json::Value;
use wasm_encoder::{CustomSection, Module, RawSection};
use wasmparser::{Parser, Payload};

/// The custom section a policy-server reads.
pub const SECTION: &str = "io.kubewarden.metadata";

/// The protocol version of ra2's waPC operations (`protocol_version` answers the same).
pub const PROTOCOL_VERSION: &str = "v1";

/// The section's JSON for a metadata file: the file's map with `protocolVersion` set.
pub fn metadata_json(metadata_yaml: &str) -> Result<Value, String> {
    let mut value = ra2_core::yaml_to_json(metadata_yaml).map_err(|e| format!("metadata is not YAML: {e}"))?;
    let Some(map) = value.as_object_mut() else {
        return Err("metadata must be a map of Kubewarden's metadata keys".to_owned());
    };
    for key in ["rules", "mutating", "executionMode"] {
        if !map.contains_key(key) {
            return Err(format!("metadata has no {key:?}"));
        }
    }
    map.insert("protocolVersion".to_owned(), Value::from(PROTOCOL_VERSION));
    Ok(value)
}

/// The module with its `name` custom sections replaced by one holding `data`, appended after
/// every other section, which are copied byte for byte.
pub fn with_custom_section(module: &[u8], name: &str, data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Module::new();
    for payload in Parser::new(0).parse_all(module) {
        let payload = payload.map_err(|e| format!("not a WebAssembly module: {e}"))?;
        match &payload {
            Payload::Version { encoding, .. } if *encoding != wasmparser::Encoding::Module => {
                return Err("a component, not a core WebAssembly module".to_owned());
            }
            Payload::CustomSection(section) if section.name() == name => continue,
            _ => {}
        }
        if let Some((id, range)) = payload.as_section() {
            let data = module.get(range).ok_or("section out of bounds")?;
            out.section(&RawSection { id, data });
        }
    }
    out.section(&CustomSection {
        name: name.into(),
        data: data.into(),
    });
    Ok(out.finish())
}

/// The content of the first custom section called `name`.
pub fn custom_section(module: &[u8], name: &str) -> Result<Option<Vec<u8>>, String> {
    for payload in Parser::new(0).parse_all(module) {
        if let Payload::CustomSection(section) = payload.map_err(|e| format!("not a WebAssembly module: {e}"))? {
            if section.name() == name {
                return Ok(Some(section.data().to_vec()));
            }
        }
    }
    Ok(None)
}

/// Annotates a policy module with the metadata of `metadata_yaml`.
pub fn annotate(module: &[u8], metadata_yaml: &str) -> Result<Vec<u8>, String> {
    let json = serde_json::to_vec(&metadata_json(metadata_yaml)?).map_err(|e| e.to_string())?;
    with_custom_section(module, SECTION, &json)
}

/// The metadata a module carries, as JSON.
pub fn metadata_of(module: &[u8]) -> Result<Option<Value>, String> {
    custom_section(module, SECTION)?
        .map(|data| serde_json::from_slice(&data).map_err(|e| format!("{SECTION} is not JSON: {e}")))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{CodeSection, ExportKind, ExportSection, Function, FunctionSection, Instruction, TypeSection};

    /// A module exporting `answer() -> i32` (42), with a custom section of its own.
    fn module() -> Vec<u8> {
        let mut m = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], [wasm_encoder::ValType::I32]);
        m.section(&types);
        let mut functions = FunctionSection::new();
        functions.function(0);
        m.section(&functions);
        let mut exports = ExportSection::new();
        exports.export("answer", ExportKind::Func, 0);
        m.section(&exports);
        let mut code = CodeSection::new();
        let mut f = Function::new([]);
        f.instruction(&Instruction::I32Const(42));
        f.instruction(&Instruction::End);
        code.function(&f);
        m.section(&code);
        m.section(&CustomSection {
            name: "producers".into(),
            data: (&b"x"[..]).into(),
        });
        m.finish()
    }

    fn shipped_metadata() -> String {
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../metadata.yml")).unwrap()
    }

    #[test]
    fn the_section_is_metadata_yml_with_the_protocol_version() {
        let yaml = shipped_metadata();
        let annotated = annotate(&module(), &yaml).unwrap();
        let mut expected = ra2_core::yaml_to_json(&yaml).unwrap();
        expected["protocolVersion"] = "v1".into();
        let found = metadata_of(&annotated).unwrap().unwrap();
        assert_eq!(found, expected);
        assert_eq!(found["executionMode"], "kubewarden-wapc");
        assert_eq!(found["rules"][0]["apiGroups"][0], "");
        // Everything else is kept, and the module still validates.
        assert_eq!(
            custom_section(&annotated, "producers").unwrap().as_deref(),
            Some(&b"x"[..])
        );
        wasmparser::Validator::new().validate_all(&annotated).unwrap();
    }

    #[test]
    fn annotating_again_replaces_the_section() {
        let once = annotate(&module(), &shipped_metadata()).unwrap();
        let twice = annotate(&once, &shipped_metadata()).unwrap();
        assert_eq!(once, twice);
        let other = annotate(&once, "rules: []\nmutating: true\nexecutionMode: kubewarden-wapc\n").unwrap();
        let sections = Parser::new(0)
            .parse_all(&other)
            .filter(|p| matches!(p, Ok(Payload::CustomSection(s)) if s.name() == SECTION))
            .count();
        assert_eq!(sections, 1);
        assert_eq!(metadata_of(&other).unwrap().unwrap()["mutating"], true);
    }

    #[test]
    fn bad_input_is_refused() {
        assert!(annotate(b"not wasm", &shipped_metadata()).is_err());
        assert!(metadata_json("- a list").is_err());
        assert!(metadata_json("rules: []\n").unwrap_err().contains("mutating"));
        assert!(metadata_json("a: [").is_err());
        assert_eq!(metadata_of(&module()).unwrap(), None);
    }
}
