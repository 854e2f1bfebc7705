//! A loop holds its values, not bookkeeping per iteration (issue 13: a
//! trivial body over `1:1e8` grew to 4.4 GB and aborted).

#![cfg(target_os = "linux")]

mod common;

use common::flowcast_in_address_space;

#[test]
fn a_long_trivial_loop_fits_in_little_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.toml");
    std::fs::write(
        &path,
        "[workflow]\nname = \"long\"\n\n[steps]\nb = { for = \"i in 1:1e7\", do = \"i\" }\ns = \"sum(b)\"\n",
    )
    .unwrap();
    // Its value is 80 MB; a boxed value per iteration needed over 1 GB.
    for scheduler in ["emcp", "dynamic"] {
        let out = flowcast_in_address_space(
            1_000_000,
            &[
                "run",
                path.to_str().unwrap(),
                "--headless",
                "--json",
                "-p",
                "2",
                "--scheduler",
                scheduler,
            ],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{scheduler}: {stderr}");
        let doc: serde_json::Value =
            serde_json::from_str(&String::from_utf8_lossy(&out.stdout)).unwrap();
        assert_eq!(
            doc["steps"]["s"]["value"], 50_000_005_000_000_u64,
            "{scheduler}"
        );
    }
}
