//! `fft(z, inverse = FALSE)`: R's discrete Fourier transform, unnormalised
//! (`fft(fft(z), inverse = TRUE)` is `z * length(z)`). R does not call
//! FFTW: it runs Richard Singleton's mixed-radix algorithm, which
//! stats/src/fft.c (`fft_factor`, `fft_work`, `fftmx`) translates from the
//! Fortran. It is ported here in the original's shape, its gotos as the
//! states of a loop, so every rounding happens where R's does and the bits
//! are R's. A matrix is transformed along each dimension in turn, as
//! fourier.c's `fft` does (R's multi-dimensional transform).

use std::sync::atomic::AtomicBool;

use nalgebra::DMatrix;
use num_complex::Complex64;

use super::args::{ArgError, Args};
use super::{check_cancel, opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "mvfft",
        params: &[req("z"), opt("inverse")],
        random: false,
        shape: mvfft_shape,
        eval: mvfft_eval,
    },
    Kernel {
        name: "fft",
        params: &[req("z"), opt("inverse")],
        random: false,
        shape,
        eval,
    },
];

/// What `fft_factor` leaves in its statics for `fft_work`.
struct Factors {
    /// The factors, square factors mirrored around the square-free ones.
    nfac: [i64; 21],
    /// How many factors.
    m: i64,
    /// How many square factors.
    kt: i64,
    /// The largest factor: the size of the work arrays.
    maxf: i64,
    /// The size of the permutation array.
    maxp: i64,
}

/// R's `fft_factor`: `n`'s factors as `fftmx` takes them (4 for each 16,
/// then odd squares, 2 for a remaining 4, then the square-free rest);
/// `None` where R reports "fft factorization error".
fn fft_factor(n: i64) -> Option<Factors> {
    if n <= 0 {
        return None;
    }
    let mut f = Factors {
        nfac: [0; 21],
        m: 0,
        kt: 0,
        maxf: 0,
        maxp: 0,
    };
    let mut k = n;
    if k == 1 {
        return Some(f);
    }
    let push = |f: &mut Factors, v: i64| {
        f.nfac[f.m as usize] = v;
        f.m += 1;
    };
    while k % 16 == 0 {
        push(&mut f, 4);
        k /= 16;
    }
    let mut sqrtk = (k as f64).sqrt() as i64;
    let mut j = 3;
    while j <= sqrtk {
        let jj = j * j;
        let mut changed = false;
        while k % jj == 0 {
            push(&mut f, j);
            k /= jj;
            changed = true;
        }
        if changed {
            sqrtk = (k as f64).sqrt() as i64;
        }
        j += 2;
    }
    if k <= 4 {
        f.kt = f.m;
        f.nfac[f.m as usize] = k;
        if k != 1 {
            f.m += 1;
        }
    } else {
        if k % 4 == 0 {
            push(&mut f, 2);
            k /= 4;
        }
        f.kt = f.m;
        f.maxp = (f.kt + f.kt + 2).max(k - 1);
        let mut j = 2;
        loop {
            if k % j == 0 {
                push(&mut f, j);
                k /= j;
            }
            j = ((j + 1) / 2) * 2 + 1;
            if j > k {
                break;
            }
        }
    }
    if f.m <= f.kt + 1 {
        f.maxp = f.m + f.kt + 1;
    }
    if f.m + f.kt > 20 {
        return None;
    }
    let mut j = f.kt;
    while j != 0 {
        j -= 1;
        let v = f.nfac[j as usize];
        push(&mut f, v);
    }
    let (m, kt) = (f.m as usize, f.kt as usize);
    f.maxf = f.nfac[m - kt - 1];
    for back in 1..=3 {
        if kt >= back {
            f.maxf = f.maxf.max(f.nfac[kt - back]);
        }
    }
    Some(f)
}

/// R's `fft_work` on interleaved (re, im) pairs, as fourier.c calls it
/// (`isn` ±2): `nseg` segments of `n` values `nspn` apart.
/// `Err` when `cancel` is set, `z` then half transformed.
fn fft_work(
    z: &mut [f64],
    nseg: i64,
    n: i64,
    nspn: i64,
    inverse: bool,
    cancel: &AtomicBool,
) -> Result<(), KernelError> {
    let Some(f) = fft_factor(n) else {
        return Ok(());
    };
    if n == 1 {
        return Ok(());
    }
    let nspan = n * nspn;
    let ntot = nspan * nseg;
    let isn = if inverse { 2 } else { -2 };
    fftmx(z, ntot, n, nspan, isn, f, cancel)
}

/// Multiply-adds between two looks at the cancel flag in an odd factor's
/// transform: a millisecond or two of work.
const POLL_WORK: i64 = 1 << 20;

/// The labels of `fftmx`'s gotos.
#[derive(Clone, Copy)]
enum At {
    Start,
    L60,
    L70,
    L80,
    L100,
    L110,
    L120,
    L130,
    L140,
    L150,
    L160,
    L170,
    L180,
    L190,
    L200,
    F5,
    L220,
    FOdd,
    L250,
    L260,
    L270,
    L290,
    L300,
    L320,
    Fin,
    L370,
    L380,
    L400,
    L410,
    L440,
    L460,
    L470,
    L480,
    L490,
    L500,
    Ord,
    L520,
    L570,
}

/// R's `fftmx` (Singleton's `fft`), 1-based as the Fortran was: `a[k]` is
/// `z[k - 1]` and `b[k]` is `z[k]`, the real and imaginary parts `inc = 2`
/// apart. Labels keep the original's numbers. An odd factor `p` costs
/// O(p) per output (a prime length n, O(n²) in all: many minutes at
/// n = 10⁶), so that loop polls `cancel` and gives `Err` when it is set.
#[allow(unused_assignments)]
fn fftmx(
    z: &mut [f64],
    ntot: i64,
    n: i64,
    nspan: i64,
    isn: i64,
    fac: Factors,
    cancel: &AtomicBool,
) -> Result<(), KernelError> {
    let ia = |k: i64| (k - 1) as usize;
    let ib = |k: i64| k as usize;
    let m = fac.m;
    let mut kt = fac.kt;
    let mut nfac = fac.nfac;
    let size = fac.maxf as usize + 2;
    let (mut at, mut ck, mut bt, mut sk) = (
        vec![0.0; size],
        vec![0.0; size],
        vec![0.0; size],
        vec![0.0; size],
    );
    let mut np = vec![0i64; fac.maxp.max(1) as usize + 2];

    let (mut aa, mut aj, mut ajm, mut ajp, mut ak, mut akm, mut akp) =
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    let (mut bb, mut bj, mut bjm, mut bjp, mut bk, mut bkm, mut bkp) =
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    let (mut c1, mut c2, mut c3, mut cd) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let mut dr = 0.0f64;
    let (mut s1, mut s2, mut s3, mut sd) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let (mut j, mut jj) = (0i64, 0i64);
    let (mut k, mut k1, mut k2, mut k3, mut k4, mut kk) = (0i64, 0i64, 0i64, 0i64, 0i64, 0i64);
    let mut kspnn = 0i64;
    let mut mm = 0i64;

    let inc = isn.abs();
    let mut nt = inc * ntot;
    let ks = inc * nspan;
    let mut rad = std::f64::consts::FRAC_PI_4;
    let mut s72 = rad / 0.625;
    let c72 = s72.cos();
    s72 = s72.sin();
    // Rmath's M_SQRT_3.
    let mut s120 = 0.5 * 1.732_050_807_568_877_2_f64;
    if isn <= 0 {
        s72 = -s72;
        s120 = -s120;
        rad = -rad;
    }
    let mut kspan = ks;
    let mut nn = nt - inc;
    let mut jc = ks / n;
    let lim = 32;
    let klim = lim * jc;
    let mut i = 0i64;
    let mut jf = 0i64;
    let mut maxf = nfac[(m - kt - 1) as usize];
    if kt > 0 {
        maxf = maxf.max(nfac[(kt - 1) as usize]);
    }

    // Work left before the next look at `cancel`.
    let mut until_poll = POLL_WORK;
    let mut at_label = At::Start;
    loop {
        at_label = match at_label {
            At::Start => {
                dr = (8.0 * jc as f64) / kspan as f64;
                cd = (0.5 * dr * rad).sin();
                cd = 2.0 * cd * cd;
                sd = (dr * rad).sin();
                kk = 1;
                i += 1;
                if nfac[(i - 1) as usize] != 2 {
                    At::L110
                } else {
                    // The factor of 2, with its rotation factor.
                    kspan /= 2;
                    k1 = kspan + 2;
                    loop {
                        loop {
                            k2 = kk + kspan;
                            ak = z[ia(k2)];
                            bk = z[ib(k2)];
                            z[ia(k2)] = z[ia(kk)] - ak;
                            z[ib(k2)] = z[ib(kk)] - bk;
                            z[ia(kk)] += ak;
                            z[ib(kk)] += bk;
                            kk = k2 + kspan;
                            if kk > nn {
                                break;
                            }
                        }
                        kk -= nn;
                        if kk > jc {
                            break;
                        }
                    }
                    if kk > kspan {
                        At::Fin
                    } else {
                        At::L60
                    }
                }
            }
            At::L60 => {
                c1 = 1.0 - cd;
                s1 = sd;
                mm = (k1 / 2).min(klim);
                At::L80
            }
            At::L70 => {
                ak = c1 - (cd * c1 + sd * s1);
                s1 = (sd * c1 - cd * s1) + s1;
                c1 = ak;
                At::L80
            }
            At::L80 => {
                loop {
                    k2 = kk + kspan;
                    ak = z[ia(kk)] - z[ia(k2)];
                    bk = z[ib(kk)] - z[ib(k2)];
                    z[ia(kk)] += z[ia(k2)];
                    z[ib(kk)] += z[ib(k2)];
                    z[ia(k2)] = c1 * ak - s1 * bk;
                    z[ib(k2)] = s1 * ak + c1 * bk;
                    kk = k2 + kspan;
                    if kk >= nt {
                        break;
                    }
                }
                k2 = kk - nt;
                c1 = -c1;
                kk = k1 - k2;
                if kk > k2 {
                    At::L80
                } else {
                    kk += jc;
                    if kk <= mm {
                        At::L70
                    } else if kk >= k2 {
                        k1 = k1 + inc + inc;
                        kk = (k1 - kspan) / 2 + jc;
                        if kk <= jc + jc {
                            At::L60
                        } else {
                            At::Start
                        }
                    } else {
                        s1 = ((kk - 1) / jc) as f64 * dr * rad;
                        c1 = s1.cos();
                        s1 = s1.sin();
                        mm = (k1 / 2).min(mm + klim);
                        At::L80
                    }
                }
            }
            // The factor of 3.
            At::L100 => {
                k1 = kk + kspan;
                k2 = k1 + kspan;
                ak = z[ia(kk)];
                bk = z[ib(kk)];
                aj = z[ia(k1)] + z[ia(k2)];
                bj = z[ib(k1)] + z[ib(k2)];
                z[ia(kk)] = ak + aj;
                z[ib(kk)] = bk + bj;
                ak += -0.5 * aj;
                bk += -0.5 * bj;
                aj = (z[ia(k1)] - z[ia(k2)]) * s120;
                bj = (z[ib(k1)] - z[ib(k2)]) * s120;
                z[ia(k1)] = ak - bj;
                z[ib(k1)] = bk + aj;
                z[ia(k2)] = ak + bj;
                z[ib(k2)] = bk - aj;
                kk = k2 + kspan;
                if kk < nn {
                    At::L100
                } else {
                    kk -= nn;
                    if kk <= kspan {
                        At::L100
                    } else {
                        At::L290
                    }
                }
            }
            // The factor of 4.
            At::L110 => {
                if nfac[(i - 1) as usize] != 4 {
                    At::FOdd
                } else {
                    kspnn = kspan;
                    kspan /= 4;
                    At::L120
                }
            }
            At::L120 => {
                c1 = 1.0;
                s1 = 0.0;
                mm = kspan.min(klim);
                At::L150
            }
            At::L130 => {
                c2 = c1 - (cd * c1 + sd * s1);
                s1 = (sd * c1 - cd * s1) + s1;
                c1 = c2;
                At::L140
            }
            At::L140 => {
                c2 = c1 * c1 - s1 * s1;
                s2 = c1 * s1 * 2.0;
                c3 = c2 * c1 - s2 * s1;
                s3 = c2 * s1 + s2 * c1;
                At::L150
            }
            At::L150 => {
                k1 = kk + kspan;
                k2 = k1 + kspan;
                k3 = k2 + kspan;
                akp = z[ia(kk)] + z[ia(k2)];
                akm = z[ia(kk)] - z[ia(k2)];
                ajp = z[ia(k1)] + z[ia(k3)];
                ajm = z[ia(k1)] - z[ia(k3)];
                z[ia(kk)] = akp + ajp;
                ajp = akp - ajp;
                bkp = z[ib(kk)] + z[ib(k2)];
                bkm = z[ib(kk)] - z[ib(k2)];
                bjp = z[ib(k1)] + z[ib(k3)];
                bjm = z[ib(k1)] - z[ib(k3)];
                z[ib(kk)] = bkp + bjp;
                bjp = bkp - bjp;
                if isn < 0 {
                    At::L180
                } else {
                    akp = akm - bjm;
                    akm += bjm;
                    bkp = bkm + ajm;
                    bkm -= ajm;
                    if s1 == 0.0 {
                        At::L190
                    } else {
                        At::L160
                    }
                }
            }
            At::L160 => {
                z[ia(k1)] = akp * c1 - bkp * s1;
                z[ib(k1)] = akp * s1 + bkp * c1;
                z[ia(k2)] = ajp * c2 - bjp * s2;
                z[ib(k2)] = ajp * s2 + bjp * c2;
                z[ia(k3)] = akm * c3 - bkm * s3;
                z[ib(k3)] = akm * s3 + bkm * c3;
                kk = k3 + kspan;
                if kk <= nt {
                    At::L150
                } else {
                    At::L170
                }
            }
            At::L170 => {
                kk = kk - nt + jc;
                if kk <= mm {
                    At::L130
                } else if kk < kspan {
                    At::L200
                } else {
                    kk = kk - kspan + inc;
                    if kk <= jc {
                        At::L120
                    } else if kspan == jc {
                        At::Fin
                    } else {
                        At::Start
                    }
                }
            }
            At::L180 => {
                akp = akm + bjm;
                akm -= bjm;
                bkp = bkm - ajm;
                bkm += ajm;
                if s1 != 0.0 {
                    At::L160
                } else {
                    At::L190
                }
            }
            At::L190 => {
                z[ia(k1)] = akp;
                z[ib(k1)] = bkp;
                z[ia(k2)] = ajp;
                z[ib(k2)] = bjp;
                z[ia(k3)] = akm;
                z[ib(k3)] = bkm;
                kk = k3 + kspan;
                if kk <= nt {
                    At::L150
                } else {
                    At::L170
                }
            }
            At::L200 => {
                s1 = ((kk - 1) / jc) as f64 * dr * rad;
                c1 = s1.cos();
                s1 = s1.sin();
                mm = kspan.min(mm + klim);
                At::L140
            }
            // The factor of 5.
            At::F5 => {
                c2 = c72 * c72 - s72 * s72;
                s2 = 2.0 * c72 * s72;
                At::L220
            }
            At::L220 => {
                k1 = kk + kspan;
                k2 = k1 + kspan;
                k3 = k2 + kspan;
                k4 = k3 + kspan;
                akp = z[ia(k1)] + z[ia(k4)];
                akm = z[ia(k1)] - z[ia(k4)];
                bkp = z[ib(k1)] + z[ib(k4)];
                bkm = z[ib(k1)] - z[ib(k4)];
                ajp = z[ia(k2)] + z[ia(k3)];
                ajm = z[ia(k2)] - z[ia(k3)];
                bjp = z[ib(k2)] + z[ib(k3)];
                bjm = z[ib(k2)] - z[ib(k3)];
                aa = z[ia(kk)];
                bb = z[ib(kk)];
                z[ia(kk)] = aa + akp + ajp;
                z[ib(kk)] = bb + bkp + bjp;
                ak = akp * c72 + ajp * c2 + aa;
                bk = bkp * c72 + bjp * c2 + bb;
                aj = akm * s72 + ajm * s2;
                bj = bkm * s72 + bjm * s2;
                z[ia(k1)] = ak - bj;
                z[ia(k4)] = ak + bj;
                z[ib(k1)] = bk + aj;
                z[ib(k4)] = bk - aj;
                ak = akp * c2 + ajp * c72 + aa;
                bk = bkp * c2 + bjp * c72 + bb;
                aj = akm * s2 - ajm * s72;
                bj = bkm * s2 - bjm * s72;
                z[ia(k2)] = ak - bj;
                z[ia(k3)] = ak + bj;
                z[ib(k2)] = bk + aj;
                z[ib(k3)] = bk - aj;
                kk = k4 + kspan;
                if kk < nn {
                    At::L220
                } else {
                    kk -= nn;
                    if kk <= kspan {
                        At::L220
                    } else {
                        At::L290
                    }
                }
            }
            // Odd factors.
            At::FOdd => {
                k = nfac[(i - 1) as usize];
                kspnn = kspan;
                kspan /= k;
                if k == 3 {
                    At::L100
                } else if k == 5 {
                    At::F5
                } else if k == jf {
                    At::L250
                } else {
                    jf = k;
                    s1 = rad / (k as f64 / 8.0);
                    c1 = s1.cos();
                    s1 = s1.sin();
                    ck[jf as usize] = 1.0;
                    sk[jf as usize] = 0.0;
                    j = 1;
                    while j < k {
                        let (ju, ku) = (j as usize, k as usize);
                        ck[ju] = ck[ku] * c1 + sk[ku] * s1;
                        sk[ju] = ck[ku] * s1 - sk[ku] * c1;
                        k -= 1;
                        ck[k as usize] = ck[ju];
                        sk[k as usize] = -sk[ju];
                        j += 1;
                    }
                    At::L250
                }
            }
            At::L250 => {
                k1 = kk;
                k2 = kk + kspnn;
                aa = z[ia(kk)];
                bb = z[ib(kk)];
                ak = aa;
                bk = bb;
                j = 1;
                k1 += kspan;
                At::L260
            }
            At::L260 => {
                k2 -= kspan;
                j += 1;
                let ju = j as usize;
                at[ju] = z[ia(k1)] + z[ia(k2)];
                ak += at[ju];
                bt[ju] = z[ib(k1)] + z[ib(k2)];
                bk += bt[ju];
                j += 1;
                let ju = j as usize;
                at[ju] = z[ia(k1)] - z[ia(k2)];
                bt[ju] = z[ib(k1)] - z[ib(k2)];
                k1 += kspan;
                if k1 < k2 {
                    At::L260
                } else {
                    z[ia(kk)] = ak;
                    z[ib(kk)] = bk;
                    k1 = kk;
                    k2 = kk + kspnn;
                    j = 1;
                    At::L270
                }
            }
            At::L270 => {
                k1 += kspan;
                k2 -= kspan;
                jj = j;
                ak = aa;
                bk = bb;
                aj = 0.0;
                bj = 0.0;
                k = 2;
                while k < jf {
                    ak += at[k as usize] * ck[jj as usize];
                    bk += bt[k as usize] * ck[jj as usize];
                    k += 1;
                    aj += at[k as usize] * sk[jj as usize];
                    bj += bt[k as usize] * sk[jj as usize];
                    jj += j;
                    if jj > jf {
                        jj -= jf;
                    }
                    k += 1;
                }
                k = jf - j;
                z[ia(k1)] = ak - bj;
                z[ib(k1)] = bk + aj;
                z[ia(k2)] = ak + bj;
                z[ib(k2)] = bk - aj;
                until_poll -= jf;
                if until_poll <= 0 {
                    check_cancel(cancel)?;
                    until_poll = POLL_WORK;
                }
                j += 1;
                if j < k {
                    At::L270
                } else {
                    kk += kspnn;
                    if kk <= nn {
                        At::L250
                    } else {
                        kk -= nn;
                        if kk <= kspan {
                            At::L250
                        } else {
                            At::L290
                        }
                    }
                }
            }
            // The rotation factor (except for factors of 2 and 4).
            At::L290 => {
                if i == m {
                    At::Fin
                } else {
                    kk = jc + 1;
                    At::L300
                }
            }
            At::L300 => {
                c2 = 1.0 - cd;
                s1 = sd;
                mm = kspan.min(klim);
                At::L320
            }
            At::L320 => {
                c1 = c2;
                s2 = s1;
                kk += kspan;
                loop {
                    loop {
                        ak = z[ia(kk)];
                        z[ia(kk)] = c2 * ak - s2 * z[ib(kk)];
                        z[ib(kk)] = s2 * ak + c2 * z[ib(kk)];
                        kk += kspnn;
                        if kk > nt {
                            break;
                        }
                    }
                    ak = s1 * s2;
                    s2 = s1 * c2 + c1 * s2;
                    c2 = c1 * c2 - ak;
                    kk += -nt + kspan;
                    if kk > kspnn {
                        break;
                    }
                }
                kk += -kspnn + jc;
                if kk <= mm {
                    c2 = c1 - (cd * c1 + sd * s1);
                    s1 += sd * c1 - cd * s1;
                    At::L320
                } else if kk >= kspan {
                    kk = kk - kspan + jc + inc;
                    if kk <= jc + jc {
                        At::L300
                    } else {
                        At::Start
                    }
                } else {
                    s1 = ((kk - 1) / jc) as f64 * dr * rad;
                    c2 = s1.cos();
                    s1 = s1.sin();
                    mm = kspan.min(mm + klim);
                    At::L320
                }
            }
            // The results to normal order, in two stages: first the
            // square factors.
            At::Fin => {
                np[1] = ks;
                if kt == 0 {
                    At::L440
                } else {
                    k = kt + kt + 1;
                    if m < k {
                        k -= 1;
                    }
                    np[(k + 1) as usize] = jc;
                    j = 1;
                    while j < k {
                        let f = nfac[(j - 1) as usize];
                        np[(j + 1) as usize] = np[j as usize] / f;
                        np[k as usize] = np[(k + 1) as usize] * f;
                        j += 1;
                        k -= 1;
                    }
                    k3 = np[(k + 1) as usize];
                    kspan = np[2];
                    kk = jc + 1;
                    k2 = kspan + 1;
                    j = 1;
                    if n == ntot {
                        At::L370
                    } else {
                        At::L400
                    }
                }
            }
            At::L370 => {
                loop {
                    z.swap(ia(kk), ia(k2));
                    z.swap(ib(kk), ib(k2));
                    kk += inc;
                    k2 += kspan;
                    if k2 >= ks {
                        break;
                    }
                }
                At::L380
            }
            At::L380 => {
                loop {
                    k2 -= np[j as usize];
                    j += 1;
                    k2 += np[(j + 1) as usize];
                    if k2 <= np[j as usize] {
                        break;
                    }
                }
                j = 1;
                let mut next = None;
                loop {
                    if kk < k2 {
                        next = Some(At::L370);
                        break;
                    }
                    kk += inc;
                    k2 += kspan;
                    if k2 >= ks {
                        break;
                    }
                }
                match next {
                    Some(l) => l,
                    None if kk < ks => At::L380,
                    None => {
                        jc = k3;
                        At::L440
                    }
                }
            }
            At::L400 => {
                k = kk + jc;
                loop {
                    z.swap(ia(kk), ia(k2));
                    z.swap(ib(kk), ib(k2));
                    kk += inc;
                    k2 += inc;
                    if kk >= k {
                        break;
                    }
                }
                kk += ks - jc;
                k2 += ks - jc;
                if kk < nt {
                    At::L400
                } else {
                    k2 += -nt + kspan;
                    kk += -nt + jc;
                    if k2 < ks {
                        At::L400
                    } else {
                        At::L410
                    }
                }
            }
            At::L410 => {
                loop {
                    k2 -= np[j as usize];
                    j += 1;
                    k2 += np[(j + 1) as usize];
                    if k2 <= np[j as usize] {
                        break;
                    }
                }
                j = 1;
                let mut next = None;
                loop {
                    if kk < k2 {
                        next = Some(At::L400);
                        break;
                    }
                    kk += jc;
                    k2 += kspan;
                    if k2 >= ks {
                        break;
                    }
                }
                match next {
                    Some(l) => l,
                    None if kk < ks => At::L410,
                    None => {
                        jc = k3;
                        At::L440
                    }
                }
            }
            // Then the square-free factors; nfac becomes their
            // cumulative products.
            At::L440 => {
                if 2 * kt + 1 >= m {
                    return Ok(());
                }
                kspnn = np[(kt + 1) as usize];
                nn = m - kt;
                nfac[nn as usize] = 1;
                j = nn;
                while j > kt {
                    nfac[(j - 1) as usize] *= nfac[j as usize];
                    j -= 1;
                }
                kt += 1;
                nn = nfac[(kt - 1) as usize] - 1;
                jj = 0;
                j = 0;
                At::L480
            }
            At::L460 => {
                jj -= k2;
                k2 = kk;
                k += 1;
                kk = nfac[(k - 1) as usize];
                At::L470
            }
            At::L470 => {
                jj += kk;
                if jj >= k2 {
                    At::L460
                } else {
                    np[j as usize] = jj;
                    At::L480
                }
            }
            At::L480 => {
                k2 = nfac[(kt - 1) as usize];
                k = kt + 1;
                kk = nfac[(k - 1) as usize];
                j += 1;
                if j <= nn {
                    At::L470
                } else {
                    // The permutation's cycles longer than one.
                    j = 0;
                    At::L500
                }
            }
            At::L490 => {
                loop {
                    k = kk;
                    kk = np[k as usize];
                    np[k as usize] = -kk;
                    if kk == j {
                        break;
                    }
                }
                k3 = kk;
                At::L500
            }
            At::L500 => {
                loop {
                    j += 1;
                    kk = np[j as usize];
                    if kk >= 0 {
                        break;
                    }
                }
                if kk != j {
                    At::L490
                } else {
                    np[j as usize] = -j;
                    if j != nn {
                        At::L500
                    } else {
                        maxf *= inc;
                        At::L570
                    }
                }
            }
            // a and b reordered along the cycles.
            At::Ord => {
                loop {
                    j -= 1;
                    if np[j as usize] >= 0 {
                        break;
                    }
                }
                jj = jc;
                At::L520
            }
            At::L520 => {
                kspan = jj.min(maxf);
                jj -= kspan;
                k = np[j as usize];
                kk = jc * k + i + jj;
                k1 = kk + kspan;
                k2 = 1;
                while k1 != kk {
                    at[k2 as usize] = z[ia(k1)];
                    bt[k2 as usize] = z[ib(k1)];
                    k1 -= inc;
                    k2 += 1;
                }
                loop {
                    k1 = kk + kspan;
                    k2 = k1 - jc * (k + np[k as usize]);
                    k = -np[k as usize];
                    loop {
                        z[ia(k1)] = z[ia(k2)];
                        z[ib(k1)] = z[ib(k2)];
                        k1 -= inc;
                        k2 -= inc;
                        if k1 == kk {
                            break;
                        }
                    }
                    kk = k2;
                    if k == j {
                        break;
                    }
                }
                k1 = kk + kspan;
                k2 = 1;
                while k1 > kk {
                    z[ia(k1)] = at[k2 as usize];
                    z[ib(k1)] = bt[k2 as usize];
                    k1 -= inc;
                    k2 += 1;
                }
                if jj != 0 {
                    At::L520
                } else if j != 1 {
                    At::Ord
                } else {
                    At::L570
                }
            }
            At::L570 => {
                j = k3 + 1;
                nt -= kspnn;
                i = nt - inc + 1;
                if nt >= 0 {
                    At::Ord
                } else {
                    return Ok(());
                }
            }
        };
    }
}

/// fourier.c's `fft`: `z` (interleaved re, im) transformed along each of
/// `dims` longer than one, as R's multi-dimensional transform.
fn transform(
    z: &mut [f64],
    dims: &[usize],
    inverse: bool,
    cancel: &AtomicBool,
) -> Result<(), KernelError> {
    let total = (z.len() / 2) as i64;
    if total <= 1 {
        return Ok(());
    }
    for &d in dims {
        if d > 1 && fft_factor(d as i64).is_none() {
            return Err(KernelError::new("fft factorization error"));
        }
    }
    let (mut nseg, mut n, mut nspn) = (total, 1i64, 1i64);
    for &d in dims {
        if d > 1 {
            nspn *= n;
            n = d as i64;
            nseg /= n;
            fft_work(z, nseg, n, nspn, inverse, cancel)?;
        }
    }
    Ok(())
}

/// `fft(z)` of complex numbers laid out as `dims` (one dimension for a
/// vector): the transform, as R's `fft` gives it; `Err` once `cancel` is
/// set, should the transform be a long one.
pub(crate) fn fft_complex(
    z: &[Complex64],
    dims: &[usize],
    inverse: bool,
    cancel: &AtomicBool,
) -> Result<Vec<Complex64>, KernelError> {
    let mut flat: Vec<f64> = z.iter().flat_map(|c| [c.re, c.im]).collect();
    transform(&mut flat, dims, inverse, cancel)?;
    Ok(flat
        .chunks_exact(2)
        .map(|p| Complex64::new(p[0], p[1]))
        .collect())
}

/// R's coercion of numbers to complex (coerceVector): the number as the
/// real part, 0 as the imaginary one; a logical NA is NA in both.
fn as_complex(v: &Value) -> Option<(Vec<Complex64>, Vec<usize>)> {
    let real = |x: &[f64]| x.iter().map(|&r| Complex64::new(r, 0.0)).collect();
    match v {
        Value::Null => Some((Vec::new(), vec![0])),
        Value::Num(x) => Some((real(x), vec![x.len()])),
        Value::Mat(m) => Some((real(m.as_slice()), vec![m.nrows(), m.ncols()])),
        Value::Bool(_) | Value::BoolMat(_) => {
            let na = Complex64::new(super::value::NA, super::value::NA);
            let c = v
                .as_logicals()?
                .iter()
                .map(|b| b.map_or(na, |b| Complex64::new(f64::from(u8::from(b)), 0.0)))
                .collect::<Vec<_>>();
            let dims = match v.dims() {
                Some((r, c)) => vec![r, c],
                None => vec![c.len()],
            };
            Some((c, dims))
        }
        Value::Complex(c) => Some((c.clone(), vec![c.len()])),
        Value::ComplexMat(m) => Some((m.as_slice().to_vec(), vec![m.nrows(), m.ncols()])),
        Value::Named(n) => as_complex(&n.value),
        _ => None,
    }
}

/// `inverse` as `asLogical` reads it: NA and FALSE are the forward
/// transform.
fn inverse_flag(args: &Args<&Value>) -> bool {
    args.get("inverse")
        .and_then(|v| v.as_flag())
        .unwrap_or(false)
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let z = args.get("z").unwrap_or(&Value::Null);
    let (data, dims) = as_complex(z).ok_or_else(|| KernelError::new("non-numeric argument"))?;
    let out = fft_complex(&data, &dims, inverse_flag(args), ctx.cancel)?;
    Ok(match dims[..] {
        [r, c] => Value::ComplexMat(DMatrix::from_vec(r, c, out)),
        _ => Value::Complex(out),
    })
}

/// fourier.c's `mvfft`: each column of the matrix `z` transformed on its
/// own, as `fft_work` on one segment per column.
fn mvfft_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let z = args.get("z").unwrap_or(&Value::Null);
    let (data, dims) = match (z.dims(), as_complex(z)) {
        (None, _) => {
            return Err(KernelError::new(
                "vector-valued (multivariate) series required",
            ))
        }
        (Some(_), None) => return Err(KernelError::new("non-numeric argument")),
        (Some(_), Some(c)) => c,
    };
    let (n, p) = (dims[0], dims[1]);
    let inverse = inverse_flag(args);
    let mut out = Vec::with_capacity(n * p);
    for i in 0..p {
        out.extend(fft_complex(
            &data[i * n..(i + 1) * n],
            &[n],
            inverse,
            ctx.cancel,
        )?);
    }
    Ok(Value::ComplexMat(DMatrix::from_vec(n, p, out)))
}

/// fft's shape, for matrices only.
fn mvfft_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("z") {
        None
        | Some(Type::Any | Type::Mat { .. } | Type::BoolMat { .. } | Type::ComplexMat { .. }) => {
            shape(args, ctx)
        }
        Some(_) => Err(args.error("z", "vector-valued (multivariate) series required")),
    }
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("z") {
        None | Some(Type::Any) => Ok(Type::Any),
        Some(
            Type::Mat { rows, cols }
            | Type::BoolMat { rows, cols }
            | Type::ComplexMat { rows, cols },
        ) => Ok(Type::ComplexMat {
            rows: *rows,
            cols: *cols,
        }),
        Some(t @ (Type::Num { .. } | Type::Bool { .. } | Type::Complex { .. } | Type::Null)) => {
            Ok(Type::Complex { len: t.len() })
        }
        Some(t) => Err(args.error("z", format!("non-numeric argument: {}", t.describe()))),
    }
}

/// The operations Singleton's algorithm does on `n` points: a pass over
/// the data per prime factor, each as long as the factor (a prime `n` is
/// `n²`).
pub fn factor_ops(n: usize) -> f64 {
    let mut k = n;
    let mut sum = 0usize;
    let mut p = 2;
    while p * p <= k {
        while k % p == 0 {
            sum += p;
            k /= p;
        }
        p += 1;
    }
    if k > 1 {
        sum += k;
    }
    n as f64 * sum as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive sum R's transform equals up to rounding.
    fn dft(z: &[Complex64], inverse: bool) -> Vec<Complex64> {
        let n = z.len();
        let sign = if inverse { 1.0 } else { -1.0 };
        (0..n)
            .map(|k| {
                z.iter()
                    .enumerate()
                    .fold(Complex64::new(0.0, 0.0), |s, (j, &v)| {
                        let t = sign * 2.0 * std::f64::consts::PI * (j * k % n) as f64 / n as f64;
                        s + v * Complex64::new(t.cos(), t.sin())
                    })
            })
            .collect()
    }

    #[test]
    fn every_length_agrees_with_the_definition() {
        for n in (1..=64).chain([81, 100, 105, 121, 128, 210, 243, 360, 1000, 1024, 1155]) {
            let z: Vec<Complex64> = (0..n)
                .map(|i| Complex64::new((i as f64 * 0.7).sin() + 1.0, (i as f64 * 1.3).cos()))
                .collect();
            for inverse in [false, true] {
                let ours = fft_complex(&z, &[n], inverse, &AtomicBool::new(false)).unwrap();
                let want = dft(&z, inverse);
                for (a, b) in ours.iter().zip(&want) {
                    assert!((a - b).norm() < 1e-9 * n as f64, "n = {n}: {a} vs {b}");
                }
            }
        }
    }

    #[test]
    fn factors_follow_fft_factor() {
        let f = fft_factor(720).unwrap();
        // 720 = 16 * 9 * 5: 4, 3, then 5, then the squares mirrored.
        assert_eq!(&f.nfac[..f.m as usize], &[4, 3, 5, 3, 4]);
        assert_eq!(f.kt, 2);
        assert!(fft_factor(0).is_none());
    }
}
