//! `integrate(f, lower, upper, ...)`: R's adaptive quadrature, the
//! `integrate` of stats/R/integrate.R over QUADPACK's `dqags` (finite
//! limits: 21-point Gauss-Kronrod with Wynn's epsilon extrapolation) and
//! `dqagi` (an infinite limit, mapped onto (0, 1], 15-point rule) as
//! R's src/appl/integrate.c translates them. The routines keep the C's
//! shape and its one-based arrays, so `f` is called on R's points, a
//! vector at a time, and every sum is made in R's order; where R's C
//! differs from the Fortran (dqagse never lowers `ier`), R's is kept.

use super::fun::{resolve, resolve_shape, Fun};
use super::value::List;
use super::{alloc, DOTS};
use super::{names, opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "integrate",
    params: &[
        req("f"),
        req("lower"),
        req("upper"),
        DOTS,
        opt("subdivisions"),
        opt("rel.tol"),
        opt("abs.tol"),
        opt("stop.on.error"),
        opt("keep.xy"),
        opt("aux"),
    ],
    random: false,
    shape,
    eval,
}];

const EPMACH: f64 = f64::EPSILON;
const UFLOW: f64 = f64::MIN_POSITIVE;
const OFLOW: f64 = f64::MAX;

/// The integrand as R's `Rintfn` hands it to the rules: the values at a
/// vector of points, each finite.
type Integrand<'a> = dyn FnMut(&mut [f64]) -> Result<(), KernelError> + 'a;

/// One rule's estimates over a subinterval: the integral, its error,
/// the integral of |f| (`resabs`) and of |f - mean| (`resasc`).
struct Rule {
    result: f64,
    abserr: f64,
    resabs: f64,
    resasc: f64,
}

/// Weights and abscissae of `rdqk21`.
const WG21: [f64; 5] = [
    0.066_671_344_308_688_137_593_568_809_893_332,
    0.149_451_349_150_580_593_145_776_339_657_697,
    0.219_086_362_515_982_043_995_534_934_228_163,
    0.269_266_719_309_996_355_091_226_921_569_469,
    0.295_524_224_714_752_870_173_892_994_651_338,
];
const XGK21: [f64; 11] = [
    0.995_657_163_025_808_080_735_527_280_689_003,
    0.973_906_528_517_171_720_077_964_012_084_452,
    0.930_157_491_355_708_226_001_207_180_059_508,
    0.865_063_366_688_984_510_732_096_688_423_493,
    0.780_817_726_586_416_897_063_717_578_345_042,
    0.679_409_568_299_024_406_234_327_365_114_874,
    0.562_757_134_668_604_683_339_000_099_272_694,
    0.433_395_394_129_247_190_799_265_943_165_784,
    0.294_392_862_701_460_198_131_126_603_103_866,
    0.148_874_338_981_631_210_884_826_001_129_72,
    0.,
];
const WGK21: [f64; 11] = [
    0.011_694_638_867_371_874_278_064_396_062_192,
    0.032_558_162_307_964_727_478_818_972_459_39,
    0.054_755_896_574_351_996_031_381_300_244_58,
    0.075_039_674_810_919_952_767_043_140_916_19,
    0.093_125_454_583_697_605_535_065_465_083_366,
    0.109_387_158_802_297_641_899_210_590_325_805,
    0.123_491_976_262_065_851_077_958_109_831_074,
    0.134_709_217_311_473_325_928_054_001_771_707,
    0.142_775_938_577_060_080_797_094_273_138_717,
    0.147_739_104_901_338_491_374_841_515_972_068,
    0.149_445_554_002_916_905_664_936_468_389_821,
];

/// R's `rdqk21`: the 21-point Kronrod rule on (a, b), with the 10-point
/// Gauss rule inside it for the error.
fn rdqk21(f: &mut Integrand, a: f64, b: f64) -> Result<Rule, KernelError> {
    let mut fv1 = [0.0; 10];
    let mut fv2 = [0.0; 10];
    let mut vec = [0.0; 21];
    let centr = (a + b) * 0.5;
    let hlgth = (b - a) * 0.5;
    let dhlgth = hlgth.abs();
    let mut resg = 0.0;
    vec[0] = centr;
    for j in 1..=5 {
        let jtw = j * 2;
        let absc = hlgth * XGK21[jtw - 1];
        vec[j * 2 - 1] = centr - absc;
        vec[j * 2] = centr + absc;
    }
    for j in 1..=5 {
        let jtwm1 = j * 2 - 1;
        let absc = hlgth * XGK21[jtwm1 - 1];
        vec[j * 2 + 9] = centr - absc;
        vec[j * 2 + 10] = centr + absc;
    }
    f(&mut vec)?;
    let fc = vec[0];
    let mut resk = WGK21[10] * fc;
    let mut resabs = resk.abs();
    for j in 1..=5 {
        let jtw = j * 2;
        let fval1 = vec[j * 2 - 1];
        let fval2 = vec[j * 2];
        fv1[jtw - 1] = fval1;
        fv2[jtw - 1] = fval2;
        let fsum = fval1 + fval2;
        resg += WG21[j - 1] * fsum;
        resk += WGK21[jtw - 1] * fsum;
        resabs += WGK21[jtw - 1] * (fval1.abs() + fval2.abs());
    }
    for j in 1..=5 {
        let jtwm1 = j * 2 - 1;
        let fval1 = vec[j * 2 + 9];
        let fval2 = vec[j * 2 + 10];
        fv1[jtwm1 - 1] = fval1;
        fv2[jtwm1 - 1] = fval2;
        let fsum = fval1 + fval2;
        resk += WGK21[jtwm1 - 1] * fsum;
        resabs += WGK21[jtwm1 - 1] * (fval1.abs() + fval2.abs());
    }
    let reskh = resk * 0.5;
    let mut resasc = WGK21[10] * (fc - reskh).abs();
    for j in 1..=10 {
        resasc += WGK21[j - 1] * ((fv1[j - 1] - reskh).abs() + (fv2[j - 1] - reskh).abs());
    }
    let result = resk * hlgth;
    resabs *= dhlgth;
    resasc *= dhlgth;
    let mut abserr = ((resk - resg) * hlgth).abs();
    if resasc != 0.0 && abserr != 0.0 {
        abserr = resasc * 1f64.min((abserr * 200.0 / resasc).powf(1.5));
    }
    if resabs > UFLOW / (EPMACH * 50.0) {
        abserr = (EPMACH * 50.0 * resabs).max(abserr);
    }
    Ok(Rule {
        result,
        abserr,
        resabs,
        resasc,
    })
}

/// Weights and abscissae of `rdqk15i`.
const WG15: [f64; 8] = [
    0.,
    0.129_484_966_168_869_693_270_611_432_679_082,
    0.,
    0.279_705_391_489_276_667_901_467_771_423_78,
    0.,
    0.381_830_050_505_118_944_950_369_775_488_975,
    0.,
    0.417_959_183_673_469_387_755_102_040_816_327,
];
const XGK15: [f64; 8] = [
    0.991_455_371_120_812_639_206_854_697_526_329,
    0.949_107_912_342_758_524_526_189_684_047_851,
    0.864_864_423_359_769_072_789_712_788_640_926,
    0.741_531_185_599_394_439_863_864_773_280_788,
    0.586_087_235_467_691_130_294_144_838_258_73,
    0.405_845_151_377_397_166_906_606_412_076_961,
    0.207_784_955_007_898_467_600_689_403_773_245,
    0.,
];
const WGK15: [f64; 8] = [
    0.022_935_322_010_529_224_963_732_008_058_97,
    0.063_092_092_629_978_553_290_700_663_189_204,
    0.104_790_010_322_250_183_839_876_322_541_518,
    0.140_653_259_715_525_918_745_189_590_510_238,
    0.169_004_726_639_267_902_826_583_426_598_55,
    0.190_350_578_064_785_409_913_256_402_421_014,
    0.204_432_940_075_298_892_414_161_999_234_649,
    0.209_482_141_084_727_828_012_999_174_891_714,
];

/// R's `rdqk15i`: the 15-point Kronrod rule on (a, b) within (0, 1],
/// for the integrand moved there by x = boun + dinf * (1 - t) / t (both
/// halves of the line at once when `inf` is 2).
fn rdqk15i(f: &mut Integrand, boun: f64, inf: i32, a: f64, b: f64) -> Result<Rule, KernelError> {
    let mut fv1 = [0.0; 7];
    let mut fv2 = [0.0; 7];
    let mut vec = [0.0; 15];
    let mut vec2 = [0.0; 15];
    let dinf = f64::from(1.min(inf));
    let centr = (a + b) * 0.5;
    let hlgth = (b - a) * 0.5;
    let tabsc1 = boun + dinf * (1.0 - centr) / centr;
    vec[0] = tabsc1;
    if inf == 2 {
        vec2[0] = -tabsc1;
    }
    for j in 1..=7 {
        let absc = hlgth * XGK15[j - 1];
        let absc1 = centr - absc;
        let absc2 = centr + absc;
        let tabsc1 = boun + dinf * (1.0 - absc1) / absc1;
        let tabsc2 = boun + dinf * (1.0 - absc2) / absc2;
        vec[j * 2 - 1] = tabsc1;
        vec[j * 2] = tabsc2;
        if inf == 2 {
            vec2[j * 2 - 1] = -tabsc1;
            vec2[j * 2] = -tabsc2;
        }
    }
    f(&mut vec)?;
    if inf == 2 {
        f(&mut vec2)?;
    }
    let mut fval1 = vec[0];
    if inf == 2 {
        fval1 += vec2[0];
    }
    let fc = fval1 / centr / centr;
    let mut resg = WG15[7] * fc;
    let mut resk = WGK15[7] * fc;
    let mut resabs = resk.abs();
    for j in 1..=7 {
        let absc = hlgth * XGK15[j - 1];
        let absc1 = centr - absc;
        let absc2 = centr + absc;
        let mut fval1 = vec[j * 2 - 1];
        let mut fval2 = vec[j * 2];
        if inf == 2 {
            fval1 += vec2[j * 2 - 1];
            fval2 += vec2[j * 2];
        }
        fval1 = fval1 / absc1 / absc1;
        fval2 = fval2 / absc2 / absc2;
        fv1[j - 1] = fval1;
        fv2[j - 1] = fval2;
        let fsum = fval1 + fval2;
        resg += WG15[j - 1] * fsum;
        resk += WGK15[j - 1] * fsum;
        resabs += WGK15[j - 1] * (fval1.abs() + fval2.abs());
    }
    let reskh = resk * 0.5;
    let mut resasc = WGK15[7] * (fc - reskh).abs();
    for j in 1..=7 {
        resasc += WGK15[j - 1] * ((fv1[j - 1] - reskh).abs() + (fv2[j - 1] - reskh).abs());
    }
    let result = resk * hlgth;
    resasc *= hlgth;
    resabs *= hlgth;
    let mut abserr = ((resk - resg) * hlgth).abs();
    if resasc != 0.0 && abserr != 0.0 {
        abserr = resasc * 1f64.min((abserr * 200.0 / resasc).powf(1.5));
    }
    if resabs > UFLOW / (EPMACH * 50.0) {
        abserr = (EPMACH * 50.0 * resabs).max(abserr);
    }
    Ok(Rule {
        result,
        abserr,
        resabs,
        resasc,
    })
}

/// R's `rdqelg`: Wynn's epsilon algorithm on the table `epstab[1..=n]`
/// (one-based, room for 52), the limit of the sequence of areas and its
/// error; `res3la[1..=3]` keeps the last three results.
fn rdqelg(
    n: &mut usize,
    epstab: &mut [f64; 53],
    res3la: &mut [f64; 4],
    nres: &mut usize,
) -> (f64, f64) {
    const LIMEXP: usize = 50;
    *nres += 1;
    let mut abserr = OFLOW;
    let mut result = epstab[*n];
    'l100: {
        if *n < 3 {
            break 'l100;
        }
        epstab[*n + 2] = epstab[*n];
        let newelm = (*n - 1) / 2;
        epstab[*n] = OFLOW;
        let num = *n;
        let mut k1 = *n;
        for i in 1..=newelm {
            let k2 = k1 - 1;
            let k3 = k1 - 2;
            let mut res = epstab[k1 + 2];
            let e0 = epstab[k3];
            let e1 = epstab[k2];
            let e2 = res;
            let e1abs = e1.abs();
            let delta2 = e2 - e1;
            let err2 = delta2.abs();
            let tol2 = e2.abs().max(e1abs) * EPMACH;
            let delta3 = e1 - e0;
            let err3 = delta3.abs();
            let tol3 = e1abs.max(e0.abs()) * EPMACH;
            if err2 <= tol2 && err3 <= tol3 {
                // e0, e1 and e2 are equal to within machine accuracy:
                // convergence is assumed.
                result = res;
                abserr = err2 + err3;
                break 'l100;
            }
            let e3 = epstab[k1];
            epstab[k1] = e1;
            let delta1 = e1 - e3;
            let err1 = delta1.abs();
            let tol1 = e1abs.max(e3.abs()) * EPMACH;
            // Two elements very close to each other, or irregular
            // behaviour in the table: part of it is omitted.
            let mut ss = 0.0;
            let mut regular = false;
            if err1 > tol1 && err2 > tol2 && err3 > tol3 {
                ss = 1.0 / delta1 + 1.0 / delta2 - 1.0 / delta3;
                let epsinf = (ss * e1).abs();
                regular = epsinf > 1e-4;
            }
            if !regular {
                *n = i + i - 1;
                break;
            }
            // L30: a new element, and perhaps a new result.
            res = e1 + 1.0 / ss;
            epstab[k1] = res;
            k1 -= 2;
            let err_a = err2 + (res - e2).abs() + err3;
            if err_a <= abserr {
                abserr = err_a;
                result = res;
            }
        }
        // L50: shift the table.
        if *n == LIMEXP {
            *n = (LIMEXP / 2) * 2 - 1;
        }
        let mut ib = if (num / 2) * 2 == num { 2 } else { 1 };
        let ie = newelm + 1;
        for _ in 1..=ie {
            let ib2 = ib + 2;
            epstab[ib] = epstab[ib2];
            ib = ib2;
        }
        if num != *n {
            let indx = num - *n + 1;
            for i in 1..=*n {
                epstab[i] = epstab[indx + i - 1];
            }
        }
        if *nres >= 4 {
            abserr = (result - res3la[3]).abs()
                + (result - res3la[2]).abs()
                + (result - res3la[1]).abs();
            res3la[1] = res3la[2];
            res3la[2] = res3la[3];
            res3la[3] = result;
        } else {
            res3la[*nres] = result;
            abserr = OFLOW;
        }
    }
    // L100:
    abserr = abserr.max(EPMACH * 5.0 * result.abs());
    (result, abserr)
}

/// R's `rdqpsrt`: keeps `iord` pointing at the error estimates in
/// decreasing order and picks the `nrmax`-th largest to bisect next
/// (one-based, as the C).
fn rdqpsrt(
    limit: usize,
    last: usize,
    maxerr: &mut usize,
    ermax: &mut f64,
    elist: &[f64],
    iord: &mut [usize],
    nrmax: &mut usize,
) {
    'last: {
        if last <= 2 {
            iord[1] = 1;
            iord[2] = 2;
            break 'last;
        }
        let errmax = elist[*maxerr];
        if *nrmax > 1 {
            let ido = *nrmax - 1;
            for _ in 1..=ido {
                let isucc = iord[*nrmax - 1];
                if errmax <= elist[isucc] {
                    break;
                }
                iord[*nrmax] = isucc;
                *nrmax -= 1;
            }
        }
        let jupbn = if last > limit / 2 + 2 {
            limit + 3 - last
        } else {
            last
        };
        let errmin = elist[last];
        let jbnd = jupbn - 1;
        for i in *nrmax + 1..=jbnd {
            let isucc = iord[i];
            if errmax >= elist[isucc] {
                // L60: errmin inserted bottom-up.
                iord[i - 1] = *maxerr;
                let mut k = jbnd;
                for _ in i..=jbnd {
                    let isucc = iord[k];
                    if errmin < elist[isucc] {
                        iord[k + 1] = last;
                        break 'last;
                    }
                    iord[k + 1] = isucc;
                    k -= 1;
                }
                iord[i] = last;
                break 'last;
            }
            iord[i - 1] = isucc;
        }
        iord[jbnd] = *maxerr;
        iord[jupbn] = last;
    }
    *maxerr = iord[*nrmax];
    *ermax = elist[*maxerr];
}

/// What QUADPACK returns: R's `value`, `abs.error`, `subdivisions` and
/// `ierr`.
struct Quad {
    result: f64,
    abserr: f64,
    last: usize,
    ier: i32,
}

/// The range a rule integrates over: (a, b) itself for dqagse, a part of
/// (0, 1] mapped from an infinite range for dqagie.
enum Range {
    Finite,
    Infinite { boun: f64, inf: i32 },
}

/// R's `rdqagse` (with `range` finite) and `rdqagie` (infinite), one
/// routine: they differ only in the rule, the first interval, and how
/// the final `ier` is reported, each kept as R has it.
fn rdqagse(
    f: &mut Integrand,
    range: Range,
    a: f64,
    b: f64,
    epsabs: f64,
    epsrel: f64,
    limit: usize,
) -> Result<Quad, KernelError> {
    let infinite = matches!(range, Range::Infinite { .. });
    let rule = |f: &mut Integrand, a: f64, b: f64| match range {
        Range::Finite => rdqk21(f, a, b),
        Range::Infinite { boun, inf } => rdqk15i(f, boun, inf, a, b),
    };
    // R sets aside `limit` of each at once; only the first `last` are
    // ever touched, so they grow with it here (a huge `subdivisions`
    // costs nothing until it is used, as R's untouched pages cost
    // nothing).
    let start = limit.min(64) + 2;
    let mut alist = alloc::filled(start, 0.0)?;
    let mut blist = alloc::filled(start, 0.0)?;
    let mut rlist = alloc::filled(start, 0.0)?;
    let mut elist = alloc::filled(start, 0.0)?;
    let mut iord = alloc::filled(start, 0usize)?;
    let mut ier = 0;
    alist[1] = a;
    blist[1] = b;
    if epsabs <= 0.0 && epsrel < (EPMACH * 50.0).max(5e-29) {
        return Ok(Quad {
            result: 0.0,
            abserr: 0.0,
            last: 0,
            ier: 6,
        });
    }
    // The first approximation to the integral.
    let first = rule(f, a, b)?;
    let mut result = first.result;
    let mut abserr = first.abserr;
    let defabs = first.resabs;
    let resabs = first.resasc;
    let dres = result.abs();
    let mut errbnd = epsabs.max(epsrel * dres);
    let mut last = 1;
    rlist[1] = result;
    elist[1] = abserr;
    iord[1] = 1;
    if abserr <= EPMACH * 100.0 * defabs && abserr > errbnd {
        ier = 2;
    }
    if limit == 1 {
        ier = 1;
    }
    if ier != 0 || (abserr <= errbnd && abserr != resabs) || abserr == 0.0 {
        return Ok(finish(infinite, result, abserr, last, ier));
    }

    let mut rlist2 = [0.0f64; 53];
    let mut res3la = [0.0f64; 4];
    rlist2[1] = result;
    let mut errmax = abserr;
    let mut maxerr = 1;
    let mut area = result;
    let mut errsum = abserr;
    abserr = OFLOW;
    let mut nrmax = 1;
    let mut nres = 0;
    let mut numrl2 = 2;
    let mut ktmin = 0;
    let mut extrap = false;
    let mut noext = false;
    let mut ierro = 0;
    let (mut iroff1, mut iroff2, mut iroff3) = (0, 0, 0);
    let (mut small, mut erlarg, mut ertest, mut correc) = (0.0, 0.0, 0.0, 0.0);
    let ksgn = if dres >= (1.0 - EPMACH * 50.0) * defabs {
        1
    } else {
        -1
    };

    // The main loop; `sum_all` is the C's `goto L115`.
    let mut sum_all = false;
    last = 2;
    while last <= limit {
        if alist.len() < last + 2 {
            let n = (alist.len() * 2).min(limit + 2).max(last + 2);
            for v in [&mut alist, &mut blist, &mut rlist, &mut elist] {
                v.try_reserve(n - v.len())
                    .map_err(|_| alloc::cannot_allocate((n * 8) as f64))?;
                v.resize(n, 0.0);
            }
            iord.try_reserve(n - iord.len())
                .map_err(|_| alloc::cannot_allocate((n * 8) as f64))?;
            iord.resize(n, 0);
        }
        // Bisect the subinterval with the nrmax-th largest error estimate.
        let a1 = alist[maxerr];
        let b1 = (alist[maxerr] + blist[maxerr]) * 0.5;
        let a2 = b1;
        let b2 = blist[maxerr];
        let erlast = errmax;
        let left = rule(f, a1, b1)?;
        let right = rule(f, a2, b2)?;
        let (area1, error1, defab1) = (left.result, left.abserr, left.resasc);
        let (area2, error2, defab2) = (right.result, right.abserr, right.resasc);
        // Improve the previous approximations to the integral and error,
        // and test for accuracy.
        let area12 = area1 + area2;
        let erro12 = error1 + error2;
        errsum = errsum + erro12 - errmax;
        area = area + area12 - rlist[maxerr];
        if !(defab1 == error1 || defab2 == error2) {
            if (rlist[maxerr] - area12).abs() <= area12.abs() * 1e-5 && erro12 >= errmax * 0.99 {
                if extrap {
                    iroff2 += 1;
                } else {
                    iroff1 += 1;
                }
            }
            if last > 10 && erro12 > errmax {
                iroff3 += 1;
            }
        }
        rlist[maxerr] = area1;
        rlist[last] = area2;
        errbnd = epsabs.max(epsrel * area.abs());
        // Roundoff error.
        if iroff1 + iroff2 >= 10 || iroff3 >= 20 {
            ier = 2;
        }
        if iroff2 >= 5 {
            ierro = 3;
        }
        // The number of subintervals equals limit.
        if last == limit {
            ier = 1;
        }
        // Bad integrand behaviour at a point of the range.
        if a1.abs().max(b2.abs()) <= (EPMACH * 100.0 + 1.0) * (a2.abs() + UFLOW * 1e3) {
            ier = 4;
        }
        // Append the newly created intervals to the list (rdqagie tests
        // `error2 <= error1` for the other branch, which differs at NaN).
        let swap = if infinite {
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            let second = !(error2 <= error1);
            second
        } else {
            error2 > error1
        };
        if swap {
            alist[maxerr] = a2;
            alist[last] = a1;
            blist[last] = b1;
            rlist[maxerr] = area2;
            rlist[last] = area1;
            elist[maxerr] = error2;
            elist[last] = error1;
        } else {
            alist[last] = a2;
            blist[maxerr] = b1;
            blist[last] = b2;
            elist[maxerr] = error1;
            elist[last] = error2;
        }
        rdqpsrt(
            limit,
            last,
            &mut maxerr,
            &mut errmax,
            &elist,
            &mut iord,
            &mut nrmax,
        );
        if errsum <= errbnd {
            sum_all = true;
            break;
        }
        if ier != 0 {
            break;
        }
        if last == 2 {
            // L80: dqagie's (0, 1] gives .375 as this does.
            small = (b - a).abs() * 0.375;
            erlarg = errsum;
            ertest = errbnd;
            rlist2[2] = area;
            last += 1;
            continue;
        }
        if noext {
            last += 1;
            continue;
        }
        erlarg -= erlast;
        if (b1 - a1).abs() > small {
            erlarg += erro12;
        }
        if !extrap {
            // Is the interval to be bisected next the smallest?
            if (blist[maxerr] - alist[maxerr]).abs() > small {
                last += 1;
                continue;
            }
            extrap = true;
            nrmax = 2;
        }
        let mut l90 = false;
        if ierro != 3 && erlarg > ertest {
            // The smallest interval has the largest error: before
            // bisecting, decrease the sum of the errors over the larger
            // intervals (erlarg) and extrapolate.
            let id = nrmax;
            let jupbnd = if last > limit / 2 + 2 {
                limit + 3 - last
            } else {
                last
            };
            for _ in id..=jupbnd {
                maxerr = iord[nrmax];
                errmax = elist[maxerr];
                if (blist[maxerr] - alist[maxerr]).abs() > small {
                    l90 = true;
                    break;
                }
                nrmax += 1;
            }
        }
        if l90 {
            last += 1;
            continue;
        }
        // L60: extrapolate.
        numrl2 += 1;
        rlist2[numrl2] = area;
        let (reseps, abseps) = rdqelg(&mut numrl2, &mut rlist2, &mut res3la, &mut nres);
        ktmin += 1;
        if ktmin > 5 && abserr < errsum * 0.001 {
            ier = 5;
        }
        if abseps < abserr {
            ktmin = 0;
            abserr = abseps;
            result = reseps;
            correc = erlarg;
            ertest = epsabs.max(epsrel * reseps.abs());
            if abserr <= ertest {
                break;
            }
        }
        // L70: prepare bisection of the smallest interval.
        if numrl2 == 1 {
            noext = true;
        }
        if ier == 5 {
            break;
        }
        maxerr = iord[1];
        errmax = elist[maxerr];
        nrmax = 1;
        extrap = false;
        small *= 0.5;
        erlarg = errsum;
        last += 1;
    }

    // L100: the final result and error estimate.
    'l130: {
        if !sum_all {
            'l110: {
                if abserr == OFLOW {
                    sum_all = true;
                    break 'l130;
                }
                if ier + ierro == 0 {
                    break 'l110;
                }
                if ierro == 3 {
                    abserr += correc;
                }
                if ier == 0 {
                    ier = 3;
                }
                if result == 0.0 || area == 0.0 {
                    if abserr > errsum {
                        sum_all = true;
                        break 'l130;
                    }
                    if area == 0.0 {
                        break 'l130;
                    }
                } else if abserr / result.abs() > errsum / area.abs() {
                    sum_all = true;
                    break 'l130;
                }
            }
            // L110: test on divergence.
            if ksgn == -1 && result.abs().max(area.abs()) <= defabs * 0.01 {
                break 'l130;
            }
            if 0.01 > result / area || result / area > 100.0 || errsum > area.abs() {
                // dqagie's 6, lowered to 5 below; dqagse's 5.
                ier = if infinite { 6 } else { 5 };
            }
        }
    }
    if sum_all {
        // L115: the global integral sum.
        result = 0.0;
        for r in rlist.iter().take(last + 1).skip(1) {
            result += r;
        }
        abserr = errsum;
    }
    Ok(finish(infinite, result, abserr, last, ier))
}

/// L130: dqagie lowers an `ier` above 2 by one; R's dqagse does not.
fn finish(infinite: bool, result: f64, abserr: f64, last: usize, ier: i32) -> Quad {
    Quad {
        result,
        abserr,
        last,
        ier: if infinite && ier > 2 { ier - 1 } else { ier },
    }
}

/// R's `Rintfn`: f at the points, the values written over them, refused
/// unless as many numbers, each finite.
fn values_of(v: &Value, x: &mut [f64]) -> Result<(), KernelError> {
    let v = names::bare(v);
    if v.len() != x.len() {
        return Err(KernelError::new(
            "evaluation of function gave a result of wrong length",
        ));
    }
    let y = match v {
        Value::Num(_) | Value::Mat(_) => v.as_f64_slice().unwrap_or_default(),
        _ => {
            return Err(KernelError::new(
                "evaluation of function gave a result of wrong type",
            ))
        }
    };
    for (xi, &yi) in x.iter_mut().zip(y.iter()) {
        *xi = yi;
        if !yi.is_finite() {
            return Err(KernelError::new("non-finite function value"));
        }
    }
    Ok(())
}

/// One number for a limit: its first element (R's asReal) once the
/// length is checked.
fn limit_of(args: &Args<&Value>, name: &str) -> Result<f64, KernelError> {
    let v = names::bare(args.get(name).ok_or_else(|| {
        KernelError::new(format!("argument \"{name}\" is missing, with no default"))
    })?);
    if v.len() != 1 {
        return Err(KernelError::new(format!("length({name}) == 1 is not TRUE")));
    }
    Ok(match v {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) => {
            v.as_f64_slice().map_or(f64::NAN, |x| x[0])
        }
        Value::Str(s) => s[0].trim().parse().unwrap_or(f64::NAN),
        _ => {
            return Err(KernelError::new(format!(
                "cannot coerce type '{}' to vector of type 'double'",
                v.type_name()
            )))
        }
    })
}

/// A number for a tolerance or the subdivisions.
fn number(args: &Args<&Value>, name: &str, default: f64) -> Result<f64, KernelError> {
    match args.get(name) {
        None => Ok(default),
        Some(v) => names::bare(v)
            .as_f64_slice()
            .and_then(|x| x.first().copied())
            .ok_or_else(|| KernelError::new("invalid parameter values")),
    }
}

/// R's messages for QUADPACK's `ier`.
const MESSAGES: [&str; 7] = [
    "OK",
    "maximum number of subdivisions reached",
    "roundoff error was detected",
    "extremely bad integrand behaviour",
    "roundoff error is detected in the extrapolation table",
    "the integral is probably divergent",
    "the input is invalid",
];

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f: Fun = resolve(args.get("f"), ctx)?
        .ok_or_else(|| KernelError::new("argument \"f\" is missing, with no default"))?;
    let subdivisions = number(args, "subdivisions", 100.0)?;
    let rel_tol = number(args, "rel.tol", f64::EPSILON.powf(0.25))?;
    let abs_tol = number(args, "abs.tol", rel_tol)?;
    let stop_on_error = args.bool_or("stop.on.error", true)?;
    // as.integer(subdivisions): NA beyond the integers, which `if` refuses.
    if subdivisions.is_nan() || subdivisions.abs() >= 2_147_483_648.0 {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    let limit = subdivisions.trunc();
    if limit < 1.0 || (abs_tol <= 0.0 && rel_tol < (50.0 * f64::EPSILON).max(0.5e-28)) {
        return Err(KernelError::new("invalid parameter values"));
    }
    let limit = limit as usize;
    let lower = limit_of(args, "lower")?;
    let upper = limit_of(args, "upper")?;
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let quad = {
        let mut integrand = |x: &mut [f64]| -> Result<(), KernelError> {
            let v = f.call_on(&Value::Num(x.to_vec()), &dots, ctx)?;
            values_of(&v, x)
        };
        if lower.is_finite() && upper.is_finite() {
            rdqagse(
                &mut integrand,
                Range::Finite,
                lower,
                upper,
                abs_tol,
                rel_tol,
                limit,
            )?
        } else {
            if lower.is_nan() || upper.is_nan() {
                return Err(KernelError::new("a limit is NA or NaN"));
            }
            let (inf, bound) = if lower.is_finite() {
                (1, lower)
            } else if upper.is_finite() {
                (-1, upper)
            } else {
                (2, 0.0)
            };
            let boun = if inf == 2 { 0.0 } else { bound };
            rdqagse(
                &mut integrand,
                Range::Infinite { boun, inf },
                0.0,
                1.0,
                abs_tol,
                rel_tol,
                limit,
            )?
        }
    };
    let message = MESSAGES[quad.ier.clamp(0, 6) as usize];
    if quad.ier == 6 || (quad.ier > 0 && stop_on_error) {
        return Err(KernelError::new(message));
    }
    Ok(Value::List(List {
        class: Some("integrate".to_string()),
        names: Some(
            ["value", "abs.error", "subdivisions", "message"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        ),
        items: vec![
            Value::scalar(quad.result),
            Value::scalar(quad.abserr),
            Value::scalar(quad.last as f64),
            Value::string(message),
        ],
        row_names: None,
    }))
}

fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    // The body is checked once, on the vector of points R passes.
    if let Some(f) = resolve_shape(args.ty("f"), ctx).map_err(|m| args.error("f", m))? {
        let mut given = vec![(None, Type::num_unknown())];
        given.extend(args.dots().map(|(n, t)| (n.map(str::to_string), t.clone())));
        // What it gives is judged at the run, as R's Rintfn judges the
        // length before the type.
        f.shape(given, None, ctx).map_err(|m| args.error("f", m))?;
    }
    for name in ["lower", "upper"] {
        if let Some(n) = args.ty(name).and_then(Type::len) {
            if n != 1 {
                return Err(args.error(name, format!("length({name}) == 1 is not TRUE")));
            }
        }
    }
    Ok(Type::Record {
        class: "integrate".to_string(),
        fields: vec![
            ("value".to_string(), Type::num(1)),
            ("abs.error".to_string(), Type::num(1)),
            ("subdivisions".to_string(), Type::num(1)),
            (
                "message".to_string(),
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
            (
                "call".to_string(),
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
        ],
    })
}
