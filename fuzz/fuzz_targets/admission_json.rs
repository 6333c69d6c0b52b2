//! The admission decision on arbitrary bytes as an HTTP body: whatever arrives, the answer is an
//! AdmissionReview (allowed, denied, or refused as malformed), never a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ra2_core::admission::{self, Input};

fuzz_target!(|data: &[u8]| {
    ra2_fuzz::within_budget(|| {
        let config = ra2_fuzz::config_for(data);
        let text = String::from_utf8_lossy(data);
        let answer = admission::review(Input::Text(&text), &config).review;
        assert!(
            answer.get("response").is_some_and(serde_json::Value::is_object),
            "no response: {answer}"
        );
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
            // The value as the request itself, and as a ValidationRequest, as the waPC policy
            // hands it over.
            let wrapped = serde_json::json!({"request": value});
            let _ = admission::validate(Input::Value(&wrapped), |_| Ok::<_, String>(&config));
            let _ = admission::validate(Input::Value(&value), |_| Ok::<_, String>(&config));
        }
    });
});
