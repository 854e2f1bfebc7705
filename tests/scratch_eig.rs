mod common;
use common::{call, pos};
use flowcast::kernels::width::run_wide;
use flowcast::kernels::Value;
use nalgebra::DMatrix;
#[test]
fn time_eigen() {
    let mut s = 7u64;
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let g = DMatrix::from_fn(n, n, |_, _| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    });
    let whats = std::env::var("WHAT").unwrap_or("eigen,svd,dist,hclust".into());
    for what in whats.split(",") {
        let ks: Vec<usize> = std::env::var("KS")
            .unwrap_or("1,2,1,2".into())
            .split(",")
            .map(|k| k.parse().unwrap())
            .collect();
        for &k in &ks {
            let t = std::time::Instant::now();
            let arg = if what == "hclust" {
                call("dist", vec![pos(Value::Mat(g.clone()))]).unwrap()
            } else {
                Value::Mat(g.clone())
            };
            let t0 = std::time::Instant::now();
            let _ = run_wide(k, 32 << 20, || call(what, vec![pos(arg.clone())]).unwrap());
            let _ = t;
            eprintln!("{what} n={n} k={k}: {:.3}s", t0.elapsed().as_secs_f64());
        }
    }
}
