#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| branan_fuzz::check_rule_set(data));
