//! R's `LDOUBLE` accumulators: x87 80-bit extended precision (64-bit
//! significand, round to nearest even), which is what `long double` is on
//! the x86-64 Linux builds whose results we reproduce.
//!
//! A double-double would be *more* precise than R and so give different
//! answers, e.g. `mean(c(1e20, 1, -1e20))` is 0 in R because the extended
//! sum loses the 1. On x86-64 the FPU's own extended arithmetic does the
//! work, as it does in R ([`x87`]); elsewhere a software emulation with the
//! same rounding ([`soft`]), which the tests check the hardware against.

// On x86-64 only the tests' reference, which need not use all of it.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod soft;
#[cfg(target_arch = "x86_64")]
mod x87;

#[cfg(not(target_arch = "x86_64"))]
pub use soft::LongDouble;
#[cfg(target_arch = "x86_64")]
pub use x87::LongDouble;

/// `Σ x` in long double, in order, as R's `rsum` and `mean`'s first pass
/// add: each value loaded before it is added, which quiets R's NA (a
/// signalling NaN), so that of NA and NaN the larger significand, NA,
/// wins in either order (`sum(c(NaN, NA))` is NA), where [`sum`] keeps
/// the NaN it met first as `colSums` and `cumsum` do.
pub fn rsum(x: &[f64]) -> LongDouble {
    #[cfg(target_arch = "x86_64")]
    return x87::rsum(x);
    #[cfg(not(target_arch = "x86_64"))]
    sum(x)
}

/// `Σ x` in long double, in order, each value added from memory.
pub fn sum(x: &[f64]) -> LongDouble {
    #[cfg(target_arch = "x86_64")]
    return x87::sum(x);
    #[cfg(not(target_arch = "x86_64"))]
    x.iter()
        .fold(LongDouble::ZERO, |s, &v| s.add(LongDouble::from_f64(v)))
}

/// `Σ x[k·stride]` in long double, in order: R's row sums, which add each
/// row's values column after column.
pub fn sum_strided(x: &[f64], stride: usize) -> LongDouble {
    #[cfg(target_arch = "x86_64")]
    return x87::sum_strided(x, stride);
    #[cfg(not(target_arch = "x86_64"))]
    x.iter()
        .step_by(stride)
        .fold(LongDouble::ZERO, |s, &v| s.add(LongDouble::from_f64(v)))
}

/// `sums[i] += col[i]` in long double for every i.
pub fn add_column(sums: &mut [LongDouble], col: &[f64]) {
    #[cfg(target_arch = "x86_64")]
    return x87::add_column(sums, col);
    #[cfg(not(target_arch = "x86_64"))]
    for (s, &v) in sums.iter_mut().zip(col) {
        *s = s.add(LongDouble::from_f64(v));
    }
}

/// The running sums of `x` in long double, each rounded to a double: R's
/// `cumsum` (cum.c's `LDOUBLE sum`).
pub fn cumsum(x: &[f64]) -> Vec<f64> {
    #[cfg(target_arch = "x86_64")]
    return x87::cumsum(x);
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut s = LongDouble::ZERO;
        x.iter()
            .map(|&v| {
                s = s.add(LongDouble::from_f64(v));
                s.to_f64()
            })
            .collect()
    }
}

/// The running products of `x` in long double, each rounded to a double:
/// R's `cumprod` (cum.c's `LDOUBLE prod`).
pub fn cumprod(x: &[f64]) -> Vec<f64> {
    #[cfg(target_arch = "x86_64")]
    return x87::cumprod(x);
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut p = LongDouble::from_f64(1.0);
        x.iter()
            .map(|&v| {
                p = p.mul(LongDouble::from_f64(v));
                p.to_f64()
            })
            .collect()
    }
}

/// `Σ (x − s)` in long double, in order: `mean`'s correction pass.
pub fn sum_deviations(x: &[f64], s: LongDouble) -> LongDouble {
    #[cfg(target_arch = "x86_64")]
    return x87::sum_deviations(x, s);
    #[cfg(not(target_arch = "x86_64"))]
    x.iter().fold(LongDouble::ZERO, |t, &v| {
        t.add(LongDouble::from_f64(v).sub(s))
    })
}

/// `Σ (x − xm)(y − ym)` in long double, in order: a covariance's cross
/// products, the deviations taken from long-double means.
pub fn sum_products(x: &[f64], xm: LongDouble, y: &[f64], ym: LongDouble) -> LongDouble {
    #[cfg(target_arch = "x86_64")]
    return x87::sum_products(x, xm, y, ym);
    #[cfg(not(target_arch = "x86_64"))]
    x.iter().zip(y).fold(LongDouble::ZERO, |s, (&a, &b)| {
        let dx = LongDouble::from_f64(a).sub(xm);
        let dy = LongDouble::from_f64(b).sub(ym);
        s.add(dx.mul(dy))
    })
}

/// `(Σ x, Σ y)`, each as [`sum`] gives it, in one pass.
pub fn sum2(x: &[f64], y: &[f64]) -> (LongDouble, LongDouble) {
    #[cfg(target_arch = "x86_64")]
    return x87::sum2(x, y);
    #[cfg(not(target_arch = "x86_64"))]
    (sum(x), sum(y))
}

/// `(Σ (x − s), Σ (y − t))`, each as [`sum_deviations`] gives it, in one
/// pass.
pub fn sum_deviations2(
    x: &[f64],
    s: LongDouble,
    y: &[f64],
    t: LongDouble,
) -> (LongDouble, LongDouble) {
    #[cfg(target_arch = "x86_64")]
    return x87::sum_deviations2(x, s, y, t);
    #[cfg(not(target_arch = "x86_64"))]
    (sum_deviations(x, s), sum_deviations(y, t))
}

/// `(Σ dx·dy, Σ dx·dz)` with `dx = x − xm`, `dy = y − ym`, `dz = z − zm`,
/// each as [`sum_products`] gives it, in one pass.
pub fn sum_products2(
    x: &[f64],
    xm: LongDouble,
    y: &[f64],
    ym: LongDouble,
    z: &[f64],
    zm: LongDouble,
) -> (LongDouble, LongDouble) {
    #[cfg(target_arch = "x86_64")]
    return x87::sum_products2(x, xm, y, ym, z, zm);
    #[cfg(not(target_arch = "x86_64"))]
    (sum_products(x, xm, y, ym), sum_products(x, xm, z, zm))
}

/// `(Σ dx·dy, Σ dx², Σ dy²)`, each as [`sum_products`] gives it, in one
/// pass.
pub fn sum_products3(
    x: &[f64],
    xm: LongDouble,
    y: &[f64],
    ym: LongDouble,
) -> (LongDouble, LongDouble, LongDouble) {
    #[cfg(target_arch = "x86_64")]
    return x87::sum_products3(x, xm, y, ym);
    #[cfg(not(target_arch = "x86_64"))]
    (
        sum_products(x, xm, y, ym),
        sum_products(x, xm, x, xm),
        sum_products(y, ym, y, ym),
    )
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::{soft, x87};

    /// Values whose extended sums round in every way: magnitudes far apart,
    /// cancellation, ties, subnormals, signed zeros.
    fn awkward(seed: u64, n: usize) -> Vec<f64> {
        let mut s = seed | 1;
        (0..n)
            .map(|i| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let m = (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
                match i % 7 {
                    0 => m * 1e16,
                    1 => m * 1e-3,
                    2 => (m * 1e6).round(),
                    3 => m * 5e-324 * 1e3,
                    4 => -0.0,
                    5 => 0.1 * ((s % 9) as f64),
                    _ => m,
                }
            })
            .collect()
    }

    fn same(h: x87::LongDouble, s: soft::LongDouble) {
        assert_eq!(h.to_f64().to_bits(), s.to_f64().to_bits());
        // All 64 significand bits, not only the double they round to.
        let big = 2f64.powi(40);
        let (hs, ss) = (
            h.mul(x87::LongDouble::from_f64(big)),
            s.mul(soft::LongDouble::from_f64(big)),
        );
        let (hf, sf) = (
            x87::LongDouble::from_f64(hs.to_f64()),
            soft::LongDouble::from_f64(ss.to_f64()),
        );
        assert_eq!(hs.sub(hf).to_f64().to_bits(), ss.sub(sf).to_f64().to_bits());
    }

    #[test]
    fn the_fpu_rounds_as_the_emulation_does() {
        for seed in 1..40 {
            let x = awkward(seed, 1 + seed as usize * 37);
            let h = super::sum(&x);
            let s = x.iter().fold(soft::LongDouble::ZERO, |a, &v| {
                a.add(soft::LongDouble::from_f64(v))
            });
            same(h, s);
            let (hm, sm) = (h.div_count(x.len()), s.div_count(x.len()));
            same(hm, sm);
            let hd = super::sum_deviations(&x, hm);
            let sd = x.iter().fold(soft::LongDouble::ZERO, |t, &v| {
                t.add(soft::LongDouble::from_f64(v).sub(sm))
            });
            same(hd, sd);
            for stride in [1, 3, 7] {
                let every = x
                    .iter()
                    .step_by(stride)
                    .fold(soft::LongDouble::ZERO, |a, &v| {
                        a.add(soft::LongDouble::from_f64(v))
                    });
                same(super::sum_strided(&x, stride), every);
                same(super::sum_strided(&x[1..], stride), {
                    x[1..]
                        .iter()
                        .step_by(stride)
                        .fold(soft::LongDouble::ZERO, |a, &v| {
                            a.add(soft::LongDouble::from_f64(v))
                        })
                });
            }
            let y: Vec<f64> = x.iter().rev().map(|v| v * 3.0).collect();
            let (hy, sy) = (
                x87::LongDouble::from_f64(0.25),
                soft::LongDouble::from_f64(0.25),
            );
            let sp = x
                .iter()
                .zip(&y)
                .fold(soft::LongDouble::ZERO, |acc, (&a, &b)| {
                    let dx = soft::LongDouble::from_f64(a).sub(sm);
                    let dy = soft::LongDouble::from_f64(b).sub(sy);
                    acc.add(dx.mul(dy))
                });
            same(super::sum_products(&x, hm, &y, hy), sp);
            let (a, b) = (x[0], x[x.len() / 2]);
            same(
                x87::LongDouble::from_f64(a)
                    .mul(x87::LongDouble::from_f64(b))
                    .sub(hm),
                soft::LongDouble::from_f64(a)
                    .mul(soft::LongDouble::from_f64(b))
                    .sub(sm),
            );
        }
    }

    #[test]
    fn fused_passes_round_as_single_ones() {
        for seed in 1..30 {
            let x = awkward(seed, 1 + seed as usize * 23);
            let y: Vec<f64> = awkward(seed + 100, x.len());
            let (sx, sy) = super::sum2(&x, &y);
            let soft_sum = |v: &[f64]| {
                v.iter().fold(soft::LongDouble::ZERO, |a, &b| {
                    a.add(soft::LongDouble::from_f64(b))
                })
            };
            let (tx, ty) = (soft_sum(&x), soft_sum(&y));
            same(sx, tx);
            same(sy, ty);
            let (mx, my) = (sx.div_count(x.len()), sy.div_count(y.len()));
            let (ux, uy) = (tx.div_count(x.len()), ty.div_count(y.len()));
            let (dx, dy) = super::sum_deviations2(&x, mx, &y, my);
            let dev = |v: &[f64], m: soft::LongDouble| {
                v.iter().fold(soft::LongDouble::ZERO, |t, &a| {
                    t.add(soft::LongDouble::from_f64(a).sub(m))
                })
            };
            same(dx, dev(&x, ux));
            same(dy, dev(&y, uy));
            let prod = |a: &[f64], am: soft::LongDouble, b: &[f64], bm: soft::LongDouble| {
                a.iter().zip(b).fold(soft::LongDouble::ZERO, |s, (&u, &v)| {
                    let du = soft::LongDouble::from_f64(u).sub(am);
                    let dv = soft::LongDouble::from_f64(v).sub(bm);
                    s.add(du.mul(dv))
                })
            };
            let (pxy, pxx, pyy) = super::sum_products3(&x, mx, &y, my);
            let (qxy, qxx) = super::sum_products2(&x, mx, &y, my, &x, mx);
            same(qxy, prod(&x, ux, &y, uy));
            same(qxx, prod(&x, ux, &x, ux));
            same(pxy, prod(&x, ux, &y, uy));
            same(pxx, prod(&x, ux, &x, ux));
            same(pyy, prod(&y, uy, &y, uy));
        }
        let (a, b, c) =
            super::sum_products3(&[], x87::LongDouble::ZERO, &[], x87::LongDouble::ZERO);
        assert_eq!((a.to_f64(), b.to_f64(), c.to_f64()), (0.0, 0.0, 0.0));
    }

    #[test]
    fn column_sums_into_rows_round_as_the_emulation_does() {
        let (a, b) = (awkward(7, 300), awkward(8, 300));
        let mut hard = vec![x87::LongDouble::ZERO; 300];
        super::add_column(&mut hard, &a);
        super::add_column(&mut hard, &b);
        // Each sum starts at +0, as R's rowSums does (so -0 + -0 is +0).
        for i in 0..300 {
            let soft = soft::LongDouble::ZERO
                .add(soft::LongDouble::from_f64(a[i]))
                .add(soft::LongDouble::from_f64(b[i]));
            same(hard[i], soft);
        }
    }

    #[test]
    fn running_sums_round_as_the_emulation_does() {
        for seed in 1..6 {
            let x = awkward(seed, 500);
            let mut s = soft::LongDouble::ZERO;
            let want: Vec<u64> = x
                .iter()
                .map(|&v| {
                    s = s.add(soft::LongDouble::from_f64(v));
                    s.to_f64().to_bits()
                })
                .collect();
            let got: Vec<u64> = super::cumsum(&x).iter().map(|v| v.to_bits()).collect();
            assert_eq!(got, want);
        }
        assert!(super::cumsum(&[]).is_empty());
    }

    /// Products that leave a double's range and come back (R keeps
    /// `cumprod(c(1e200, 1e200, 1e-200))` finite), underflow, and round.
    #[test]
    fn running_products_round_as_the_emulation_does() {
        let mut cases: Vec<Vec<f64>> = (1..6)
            .map(|seed| awkward(seed, 400).iter().map(|v| 1.0 + v * 1e-4).collect())
            .collect();
        cases.push(vec![1e200, 1e200, 1e-200, 1e-300, 1e-300, 1e300, -0.5, 3.0]);
        cases.push(vec![1e-300, 1e-300, 1e-30, 1e300, 1e300, 1e300]);
        cases.push(vec![2.0, f64::NAN, f64::INFINITY, 0.0]);
        for x in cases {
            let mut p = soft::LongDouble::from_f64(1.0);
            let want: Vec<u64> = x
                .iter()
                .map(|&v| {
                    p = p.mul(soft::LongDouble::from_f64(v));
                    p.to_f64().to_bits()
                })
                .collect();
            let got: Vec<u64> = super::cumprod(&x).iter().map(|v| v.to_bits()).collect();
            assert_eq!(got, want, "{x:?}");
        }
        assert!(super::cumprod(&[]).is_empty());
    }

    #[test]
    fn division_rounds_as_the_fpu_does() {
        for (a, b) in [(1.0, 3.0), (2.0, 3.0), (1.0, 7.0), (5.0, 3.0), (-1.0, 3.0)] {
            let h = x87::LongDouble::from_f64(a).div(x87::LongDouble::from_f64(b));
            let s = soft::LongDouble::from_f64(a).div(soft::LongDouble::from_f64(b));
            same(h, s);
        }
    }

    #[test]
    fn square_roots_round_as_the_fpu_does() {
        for seed in 1..40 {
            let x = awkward(seed, 30);
            for w in x.windows(3) {
                // Sums of three: values with bits below the double's.
                let h = x87::LongDouble::from_f64(w[0].abs())
                    .add(x87::LongDouble::from_f64(w[1].abs()))
                    .add(x87::LongDouble::from_f64(w[2].abs()))
                    .div_count(3);
                let s = soft::LongDouble::from_f64(w[0].abs())
                    .add(soft::LongDouble::from_f64(w[1].abs()))
                    .add(soft::LongDouble::from_f64(w[2].abs()))
                    .div_count(3);
                same(h.sqrt(), s.sqrt());
                let (hd, sd) = (
                    x87::LongDouble::from_f64(w[0]),
                    soft::LongDouble::from_f64(w[0]),
                );
                if w[0] != 0.0 {
                    same(h.div(hd), s.div(sd));
                }
            }
        }
        // cor(x, x)'s sd: sqrtl of var rounds where sqrt of (double) var
        // does not.
        let v = soft::LongDouble::from_f64(4.0).sqrt();
        assert_eq!(v.to_f64(), 2.0);
    }

    #[test]
    fn the_fpu_keeps_64_bits_and_no_more() {
        let ld = x87::LongDouble::from_f64;
        let a = ld(2f64.powi(63)).add(ld(1.0)).sub(ld(2f64.powi(63)));
        assert_eq!(a.to_f64(), 1.0);
        let b = super::sum(&[2f64.powi(64), 1.0, -(2f64.powi(64))]);
        assert_eq!(b.to_f64(), 0.0);
        let c = super::sum(&[2f64.powi(63), 1.0, -(2f64.powi(63))]);
        assert_eq!(c.to_f64(), 1.0);
    }

    #[test]
    fn empty_and_special_sums() {
        assert_eq!(super::sum(&[]).to_f64().to_bits(), 0);
        assert!(super::sum(&[1.0, f64::INFINITY]).to_f64().is_infinite());
        assert!(super::sum(&[f64::INFINITY, f64::NEG_INFINITY])
            .to_f64()
            .is_nan());
        assert!(super::sum(&[1.0]).div_count(0).to_f64().is_infinite());
        assert!(super::sum(&[0.0]).div_count(0).to_f64().is_nan());
    }
}
