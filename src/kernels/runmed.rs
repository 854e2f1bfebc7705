//! `runmed(x, k, endrule, algorithm, na.action)`: R 4.2.2's running
//! medians, stats/R/runmed.R over Srunmed.c's `runmed` (NA handling),
//! `Srunmed` (Stuetzle) and Trunmed.c's `Trunmed` (Turlach, after Härdle
//! and Steiger's double heap), with runmed.R's `smoothEnds` for endrule
//! "median". R's value carries attribute `k`; flowcast's is the numeric
//! vector alone.

use super::args::{ArgError, Args};
use super::value::NA;
use super::vector::choice;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "runmed",
        params: &[
            req("x"),
            req("k"),
            opt("endrule"),
            opt("algorithm"),
            opt("na.action"),
        ],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "smoothEnds",
        params: &[req("y"), opt("k")],
        random: false,
        shape: smooth_ends_shape,
        eval: smooth_ends_eval,
    },
];

/// Srunmed.c's stand-in for NA and NaN under "+Big_alternate" and
/// "-Big_alternate" (below 2^1023, so that twice it is still finite).
const BIG_DBL: f64 = 8.888888888e307;

/// `as.double(x)` for runmed: numbers and logicals as they are, text read
/// as numbers (NA where it is not one, with R's warning).
pub(super) fn as_double(v: &Value, ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Str(s) => Ok(super::coerce::text_as_doubles(s, ctx)),
        v => v.as_f64_slice().map(|s| s.into_owned()).ok_or_else(|| {
            KernelError::new(format!(
                "'{}' object cannot be coerced to type 'double'",
                v.type_name()
            ))
        }),
    }
}

/// Srunmed.c's `Srunmed`: the median of the first `bw` by insertion sort,
/// then updated as one value enters and one leaves, rescanning the window
/// only when the median must move.
fn srunmed(y: &[f64], smo: &mut [f64], bw: usize, end_rule: bool) -> Result<(), KernelError> {
    let n = y.len();
    if bw > n || bw == 0 {
        return Err(KernelError::new(
            "bandwidth/span of running medians is larger than n",
        ));
    }
    let mut scrat: Vec<f64> = y[..bw].to_vec();
    let (mut rmin, mut imin) = (scrat[0], 0);
    for (i, &v) in scrat.iter().enumerate().skip(1) {
        if v < rmin {
            rmin = v;
            imin = i;
        }
    }
    let temp = scrat[0];
    scrat[0] = rmin;
    scrat[imin] = temp;
    for i in 2..bw {
        if scrat[i] < scrat[i - 1] {
            let temp = scrat[i];
            let mut j = i;
            loop {
                scrat[j] = scrat[j - 1];
                j -= 1;
                if !(j > 0 && scrat[j - 1] > temp) {
                    break;
                }
            }
            scrat[j] = temp;
        }
    }
    let mut band2 = bw / 2;
    let mut rmed = scrat[band2];
    for i in 0..band2 {
        smo[i] = if end_rule { rmed } else { y[i] };
    }
    smo[band2] = rmed;
    band2 += 1;
    let (mut first, mut last, mut ismo) = (1, bw, band2);
    while last < n {
        let yin = y[last];
        let yout = y[first - 1];
        let mut rnew = rmed;
        if yin < rmed {
            if yout >= rmed {
                let mut kminus = 0;
                if yout > rmed {
                    rnew = yin;
                    for &yi in &y[first..=last] {
                        if yi < rmed {
                            kminus += 1;
                            if yi > rnew {
                                rnew = yi;
                            }
                        }
                    }
                    if kminus < band2 {
                        rnew = rmed;
                    }
                } else {
                    let (mut rse, mut rts) = (yin, yin);
                    for &yi in &y[first..=last] {
                        if yi <= rmed {
                            if yi < rmed {
                                kminus += 1;
                                if yi > rts {
                                    rts = yi;
                                }
                                if yi > rse {
                                    rse = yi;
                                }
                            } else {
                                rse = yi;
                            }
                        }
                    }
                    rnew = if kminus == band2 { rts } else { rse };
                }
            }
        } else if yin != rmed && yout <= rmed {
            let mut kplus = 0;
            if yout < rmed {
                rnew = yin;
                for &yi in &y[first..=last] {
                    if yi > rmed {
                        kplus += 1;
                        if yi < rnew {
                            rnew = yi;
                        }
                    }
                }
                if kplus < band2 {
                    rnew = rmed;
                }
            } else {
                let (mut rbe, mut rtb) = (yin, yin);
                for &yi in &y[first..=last] {
                    if yi >= rmed {
                        if yi > rmed {
                            kplus += 1;
                            if yi < rtb {
                                rtb = yi;
                            }
                            if yi < rbe {
                                rbe = yi;
                            }
                        } else {
                            rbe = yi;
                        }
                    }
                }
                rnew = if kplus == band2 { rtb } else { rbe };
            }
        }
        rmed = rnew;
        smo[ismo] = rmed;
        first += 1;
        last += 1;
        ismo += 1;
    }
    for i in ismo..n {
        smo[i] = if end_rule { rmed } else { y[i] };
    }
    Ok(())
}

/// Trunmed.c's double heap: `window` (H of the paper) holds the lower
/// heap below index k, the median at k and the upper heap above, with
/// sentinels at both ends; `outlist` and `nrlist` are its permuters.
/// Indices are signed as the C's are (`outvirt` runs negative for the
/// lower heap); a slot outside the arrays, which R's data never reach,
/// stops a walk instead of being read.
struct Heap {
    window: Vec<f64>,
    outlist: Vec<isize>,
    nrlist: Vec<isize>,
}

/// The slot `i` of `v`, or `outside` for an index past either end.
fn at<T: Copy>(v: &[T], i: isize, outside: T) -> T {
    usize::try_from(i)
        .ok()
        .and_then(|i| v.get(i))
        .copied()
        .unwrap_or(outside)
}

/// Sets slot `i` of `v`; an index past either end writes nothing.
fn put<T>(v: &mut [T], i: isize, x: T) {
    if let Some(s) = usize::try_from(i).ok().and_then(|i| v.get_mut(i)) {
        *s = x;
    }
}

impl Heap {
    fn w(&self, i: isize) -> f64 {
        at(&self.window, i, f64::NAN)
    }

    fn has(&self, i: isize) -> bool {
        usize::try_from(i).is_ok_and(|i| i < self.window.len())
    }

    fn set_w(&mut self, i: isize, v: f64) {
        put(&mut self.window, i, v);
    }

    fn nr(&self, i: isize) -> isize {
        at(&self.nrlist, i, 0)
    }

    fn set_nr(&mut self, i: isize, v: isize) {
        put(&mut self.nrlist, i, v);
    }

    fn out(&self, i: isize) -> isize {
        at(&self.outlist, i, 0)
    }

    fn set_out(&mut self, i: isize, v: isize) {
        put(&mut self.outlist, i, v);
    }

    /// Trunmed.c's `swap`.
    fn swap(&mut self, l: isize, r: isize) {
        let tmp = self.w(l);
        self.set_w(l, self.w(r));
        self.set_w(r, tmp);
        let (nl, nr) = (self.nr(l), self.nr(r));
        self.set_nr(l, nr);
        self.set_out(nr, l);
        self.set_nr(r, nl);
        self.set_out(nl, r);
    }

    /// Trunmed.c's `siftup` (for `R_heapsort` only).
    fn siftup(&mut self, l: isize, r: isize) {
        let mut i = l;
        let nrold = self.nr(i);
        let x = self.w(i);
        loop {
            let mut j = 2 * i;
            if j > r {
                break;
            }
            if j < r && self.w(j) < self.w(j + 1) {
                j += 1;
            }
            if x >= self.w(j) {
                break;
            }
            self.set_w(i, self.w(j));
            self.set_out(self.nr(j), i);
            self.set_nr(i, self.nr(j));
            i = j;
        }
        self.set_w(i, x);
        self.set_out(nrold, i);
        self.set_nr(i, nrold);
    }

    /// Trunmed.c's `R_heapsort` of window[low..=up].
    fn heapsort(&mut self, low: isize, up: isize) {
        let mut l = up / 2 + 1;
        let mut u = up;
        while l > low {
            l -= 1;
            self.siftup(l, u);
        }
        while u > low {
            self.swap(l, u);
            u -= 1;
            self.siftup(l, u);
        }
    }

    /// Trunmed.c's `toroot`.
    fn toroot(&mut self, mut outvirt: isize, k: isize, nrnew: f64, outnext: isize) {
        loop {
            let father = outvirt / 2;
            self.set_w(outvirt + k, self.w(father + k));
            self.set_out(self.nr(father + k), outvirt + k);
            self.set_nr(outvirt + k, self.nr(father + k));
            outvirt = father;
            if father == 0 {
                break;
            }
        }
        self.set_w(k, nrnew);
        self.set_out(outnext, k);
        self.set_nr(k, outnext);
    }

    /// Trunmed.c's `downtoleave`.
    fn downtoleave(&mut self, mut outvirt: isize, k: isize) {
        loop {
            let mut childl = outvirt * 2;
            let childr = childl - 1;
            if !self.has(childl + k) || !self.has(childr + k) {
                break;
            }
            if self.w(childl + k) < self.w(childr + k) {
                childl = childr;
            }
            if self.w(outvirt + k) >= self.w(childl + k) {
                break;
            }
            self.swap(outvirt + k, childl + k);
            outvirt = childl;
        }
    }

    /// Trunmed.c's `uptoleave`.
    fn uptoleave(&mut self, mut outvirt: isize, k: isize) {
        loop {
            let mut childl = outvirt * 2;
            let childr = childl + 1;
            if !self.has(childl + k) || !self.has(childr + k) {
                break;
            }
            if self.w(childl + k) > self.w(childr + k) {
                childl = childr;
            }
            if self.w(outvirt + k) <= self.w(childl + k) {
                break;
            }
            self.swap(outvirt + k, childl + k);
            outvirt = childl;
        }
    }

    /// Trunmed.c's `upperoutupperin`.
    fn upperoutupperin(&mut self, mut outvirt: isize, k: isize) {
        self.uptoleave(outvirt, k);
        let mut father = outvirt / 2;
        while self.w(outvirt + k) < self.w(father + k) {
            self.swap(outvirt + k, father + k);
            outvirt = father;
            father = outvirt / 2;
        }
    }

    /// Trunmed.c's `upperoutdownin`.
    fn upperoutdownin(&mut self, outvirt: isize, k: isize, nrnew: f64, outnext: isize) {
        self.toroot(outvirt, k, nrnew, outnext);
        if self.w(k) < self.w(k - 1) {
            self.swap(k, k - 1);
            self.downtoleave(-1, k);
        }
    }

    /// Trunmed.c's `downoutdownin`.
    fn downoutdownin(&mut self, mut outvirt: isize, k: isize) {
        self.downtoleave(outvirt, k);
        let mut father = outvirt / 2;
        while self.w(outvirt + k) > self.w(father + k) {
            self.swap(outvirt + k, father + k);
            outvirt = father;
            father = outvirt / 2;
        }
    }

    /// Trunmed.c's `downoutupperin`.
    fn downoutupperin(&mut self, outvirt: isize, k: isize, nrnew: f64, outnext: isize) {
        self.toroot(outvirt, k, nrnew, outnext);
        if self.w(k) > self.w(k + 1) {
            self.swap(k, k + 1);
            self.uptoleave(1, k);
        }
    }
}

/// Trunmed.c's `Trunmed` (`inittree` then `runmedint`); `k` is odd and at
/// most `data.len()`.
fn trunmed(data: &[f64], median: &mut [f64], k: usize, end_rule: bool) {
    let n = data.len();
    let k2 = (k - 1) / 2;
    let mut h = Heap {
        window: vec![0.0; 2 * k + 1],
        nrlist: vec![0; 2 * k + 1],
        outlist: vec![0; k + 1],
    };
    let ki = k as isize;
    let k2i = k2 as isize;
    // inittree: window[1..=k] the first k data, sorted.
    for i in 1..=k {
        h.window[i] = data[i - 1];
        h.nrlist[i] = i as isize;
        h.outlist[i] = i as isize;
    }
    h.heapsort(1, ki);
    let mut big = h.window[k].abs();
    if big < h.window[1].abs() {
        big = h.window[1].abs();
    }
    for i in (1..=k).rev() {
        h.window[i + k2] = h.window[i];
        h.nrlist[i + k2] = h.nrlist[i] - 1;
    }
    for i in 0..k {
        h.outlist[i] = h.outlist[i + 1] + k2i;
    }
    for &d in &data[k..] {
        if big < d.abs() {
            big = d.abs();
        }
    }
    big = 1.0 + 2.0 * big;
    for i in 0..=k2 {
        h.window[i] = -big;
        h.window[k + k2 + 1 + i] = big;
    }
    // runmedint.
    if end_rule {
        for m in median.iter_mut().take(k2 + 1) {
            *m = h.window[k];
        }
    } else {
        median[..k2].copy_from_slice(&data[..k2]);
        median[k2] = h.window[k];
    }
    let mut outnext: isize = 0;
    for i in k2 + 1..n - k2 {
        let out = h.out(outnext);
        let nrnew = data[i + k2];
        h.set_w(out, nrnew);
        let outvirt = out - ki;
        if out > ki {
            if nrnew >= h.w(ki) {
                h.upperoutupperin(outvirt, ki);
            } else {
                h.upperoutdownin(outvirt, ki, nrnew, outnext);
            }
        } else if out < ki {
            if nrnew < h.w(ki) {
                h.downoutdownin(outvirt, ki);
            } else {
                h.downoutupperin(outvirt, ki, nrnew, outnext);
            }
        } else if h.w(ki) > h.w(ki + 1) {
            // wentoutone
            h.swap(ki, ki + 1);
            h.uptoleave(1, ki);
        } else if h.w(ki) < h.w(ki - 1) {
            // wentouttwo
            h.swap(ki, ki - 1);
            h.downtoleave(-1, ki);
        }
        median[i] = h.w(ki);
        outnext = (outnext + 1) % ki;
    }
    for i in n - k2..n {
        median[i] = if end_rule { h.window[k] } else { data[i] };
    }
}

/// runmed.R's `med3`: the median of three numbers without NA.
fn med3(a: f64, b: f64, c: f64) -> f64 {
    let mut m = b;
    if a < b {
        if c < b {
            m = if a >= c { a } else { c };
        }
    } else if c > b {
        m = if a <= c { a } else { c };
    }
    m
}

/// runmed.R's `med3i` (and `med.3`): with an NA the mean of the others.
fn med3i(a: f64, b: f64, c: f64) -> f64 {
    let x = [a, b, c];
    if x.iter().any(|v| v.is_nan()) {
        let kept: Vec<f64> = x.into_iter().filter(|v| !v.is_nan()).collect();
        super::summary::mean(&kept)
    } else {
        med3(a, b, c)
    }
}

/// runmed.R's `med.odd`: the ((n+1) %/% 2)-th smallest of the non-NA.
fn med_odd(x: &[f64]) -> f64 {
    let mut kept: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
    let half = kept.len().div_ceil(2);
    if half == 0 {
        return x.first().copied().unwrap_or(NA);
    }
    kept.sort_by(|a, b| a.total_cmp(b));
    kept[half - 1]
}

/// runmed.R's `smoothEnds(y, k)` for an odd `k`: medians of shrinking
/// windows toward each end, then Tukey's end-point rule.
pub(super) fn smooth_ends(y: &[f64], k: usize) -> Vec<f64> {
    let k = k / 2;
    let mut sm = y.to_vec();
    let n = y.len();
    if k < 1 || n < 3 {
        return sm;
    }
    // 1-based as the R code.
    let at = |i: usize| i - 1;
    let (n_1, n_2) = (n - 1, n - 2);
    if k >= 2 {
        sm[at(2)] = med3i(y[0], y[1], y[2]);
        sm[at(n_1)] = med3i(y[at(n)], y[at(n_1)], y[at(n_2)]);
        for i in 3..=k {
            let j = 2 * i - 1;
            if j > n {
                break;
            }
            sm[at(i)] = med_odd(&y[..j]);
            sm[at(n - i + 1)] = med_odd(&y[n - j..]);
        }
    }
    sm[0] = med3i(y[0], sm[at(2)], sm[at(2)] - 2.0 * (sm[at(3)] - sm[at(2)]));
    sm[at(n)] = med3i(
        y[at(n)],
        sm[at(n_1)],
        sm[at(n_1)] - 2.0 * (sm[at(n_2)] - sm[at(n_1)]),
    );
    sm
}

/// `as.integer(k)` of a number: truncated, NA past the int range.
fn as_integer(v: f64) -> Option<i64> {
    (v.is_finite() && v.abs() < 2147483648.0).then(|| v.trunc() as i64)
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let kv = args
        .get("k")
        .ok_or_else(|| KernelError::new("argument \"k\" is missing, with no default"))?;
    let x = as_double(xv, ctx)?;
    let n = x.len();
    let invalid_k = || KernelError::new("invalid value of 'k'");
    let k = match kv {
        Value::Str(s) if !s.is_empty() => {
            let v = s[0].trim().parse::<f64>().map_err(|_| invalid_k())?;
            as_integer(v).ok_or_else(invalid_k)?
        }
        v => match v.as_f64_slice() {
            Some(s) if !s.is_empty() => as_integer(s[0]).ok_or_else(invalid_k)?,
            Some(_) => return Err(KernelError::new("argument is of length zero")),
            None => return Err(invalid_k()),
        },
    };
    if k < 0 {
        return Err(KernelError::new("'k' must be positive"));
    }
    let mut k = k;
    if k % 2 == 0 {
        k = 1 + 2 * (k / 2);
        ctx.warn(format!("'k' must be odd!  Changing 'k' to {k}"));
    }
    if n == 0 {
        return Ok(Value::Num(Vec::new()));
    }
    if k as usize > n {
        k = 1 + 2 * ((n as i64 - 1) / 2);
        ctx.warn(format!("'k' is bigger than 'n'!  Changing 'k' to {k}"));
    }
    let k = k as usize;
    let turlach = match args.get("algorithm") {
        None => !(k < 20 || n < 300),
        Some(Value::Null) => false,
        Some(_) => choice(args, "algorithm", &["Stuetzle", "Turlach"])? == "Turlach",
    };
    let endrule = choice(args, "endrule", &["median", "keep", "constant"])?;
    let constant = endrule == "constant";
    const NA_ACTIONS: [&str; 4] = ["+Big_alternate", "-Big_alternate", "na.omit", "fail"];
    // pmatch: an unmatched action is only an error once there are NAs.
    let na_action: Option<usize> = match args.get("na.action") {
        None => Some(0),
        Some(Value::Str(s)) if !s.is_empty() => {
            let given = s[0].as_str();
            NA_ACTIONS.iter().position(|a| *a == given).or_else(|| {
                let mut hits = NA_ACTIONS
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| !given.is_empty() && a.starts_with(given));
                match (hits.next(), hits.next()) {
                    (Some((i, _)), None) => Some(i),
                    _ => None,
                }
            })
        }
        Some(_) => None,
    };
    let first_na = x.iter().position(|v| v.is_nan());
    let mut nn = n;
    let xx: Vec<f64> = match first_na {
        None => x.clone(),
        Some(at) => match na_action {
            Some(a @ (0 | 1)) => {
                let mut pos = a == 0;
                x.iter()
                    .map(|&v| {
                        if v.is_nan() {
                            let b = if pos { BIG_DBL } else { -BIG_DBL };
                            pos = !pos;
                            b
                        } else {
                            v
                        }
                    })
                    .collect()
            }
            // R's C copies one value too few before the first NA here
            // (reading an unset one); flowcast keeps them all, as
            // `x[!is.na(x)]` is meant.
            Some(2) => {
                let kept: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
                nn = kept.len();
                kept
            }
            Some(_) => {
                return Err(KernelError::new(format!(
                    "runmed(x, .., na.action=\"na.fail\"): have NAs starting at x[{}]",
                    at + 1
                )))
            }
            None => return Err(KernelError::new("runmed(): invalid 'na.action'")),
        },
    };
    let mut res = vec![0.0; n];
    if turlach {
        if k > nn || k == 0 {
            return Err(KernelError::new(
                "bandwidth/span of running medians is larger than n",
            ));
        }
        trunmed(&xx, &mut res[..nn], k, constant);
    } else {
        srunmed(&xx, &mut res[..nn], k, constant)?;
    }
    if let Some(at) = first_na {
        match na_action {
            Some(0 | 1) => {
                for i in at..n {
                    if x[i].is_nan() && !res[i].is_nan() && res[i].abs() == BIG_DBL {
                        res[i] = x[i];
                    }
                }
            }
            _ => {
                let med = res[..nn].to_vec();
                let mut ix = at;
                for i in at..n {
                    if x[i].is_nan() {
                        res[i] = x[i];
                    } else {
                        res[i] = med.get(ix).copied().unwrap_or(NA);
                        ix += 1;
                    }
                }
            }
        }
    }
    if endrule == "median" {
        res = smooth_ends(&res, k);
    }
    Ok(Value::Num(res))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("x") {
        if !t.is_numeric() && !matches!(t, Type::Null | Type::Any | Type::Str { .. }) {
            return Err(args.error(
                "x",
                format!("runmed() needs numbers for 'x', not {}", t.describe()),
            ));
        }
    }
    if let Some(e) = args.const_str("endrule") {
        if super::vector::match_arg(e, &["median", "keep", "constant"]).is_err() {
            return Err(args.error(
                "endrule",
                "'arg' should be one of \u{201c}median\u{201d}, \u{201c}keep\u{201d}, \u{201c}constant\u{201d}",
            ));
        }
    }
    let len = args.ty("x").and_then(Type::len);
    Ok(Type::Num { len, value: None })
}

/// R's `y[a:b]` for `a <= b`: index 0 dropped, past the end NA, and R's
/// error when negative and positive indices mix.
fn r_range(y: &[f64], a: i64, b: i64) -> Result<Vec<f64>, KernelError> {
    if a < 0 && b > 0 {
        return Err(KernelError::new(
            "only 0's may be mixed with negative subscripts",
        ));
    }
    Ok((a.max(1)..=b)
        .map(|i| y.get(i as usize - 1).copied().unwrap_or(NA))
        .collect())
}

/// runmed.R's `med.odd(x, n)`: the ((n+1) %/% 2)-th smallest, n the
/// count of x's non-NA when x has NA, else the n given (which may exceed
/// x's length when R's index dropped a 0).
fn med_odd_n(x: &[f64], n: usize) -> f64 {
    let (kept, n): (Vec<f64>, usize) = if x.iter().any(|v| v.is_nan()) {
        let kept: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
        let n = kept.len();
        (kept, n)
    } else {
        (x.to_vec(), n)
    };
    let half = n.div_ceil(2);
    if half == 0 {
        return x.first().copied().unwrap_or(NA);
    }
    let mut sorted = kept;
    sorted.sort_by(f64::total_cmp);
    sorted.get(half - 1).copied().unwrap_or(NA)
}

/// runmed.R's `smoothEnds(y, k)` step by step, R's indexing included (a
/// `k` past the data reads NA, then fails where R's subscripts fail).
fn smooth_ends_r(y: &[f64], k: usize) -> Result<Vec<f64>, KernelError> {
    let k = k / 2;
    if k < 1 {
        return Ok(y.to_vec());
    }
    let n = y.len();
    // Too short for the rule: R fails at its first subscript that
    // cannot be taken.
    if n < 3 {
        return Err(KernelError::new(match (k, n) {
            (1, _) => "argument is of length zero",
            (_, 1) => "only 0's may be mixed with negative subscripts",
            _ => "subscript out of bounds",
        }));
    }
    let at = |i: usize| i - 1;
    let (n_1, n_2) = (n - 1, n - 2);
    let mut sm = y.to_vec();
    if k >= 2 {
        sm[at(2)] = med3i(y[0], y[1], y[2]);
        sm[at(n_1)] = med3i(y[at(n)], y[at(n_1)], y[at(n_2)]);
        for i in 3..=k {
            let j = 2 * i - 1;
            let left = r_range(y, 1, j as i64)?;
            let value = med_odd_n(&left, j);
            if i > sm.len() {
                sm.resize(i, NA);
            }
            sm[at(i)] = value;
            let right = r_range(y, n as i64 + 1 - j as i64, n as i64)?;
            sm[at(n - i + 1)] = med_odd_n(&right, j);
        }
    }
    sm[0] = med3i(y[0], sm[at(2)], sm[at(2)] - 2.0 * (sm[at(3)] - sm[at(2)]));
    sm[at(n)] = med3i(
        y[at(n)],
        sm[at(n_1)],
        sm[at(n_1)] - 2.0 * (sm[at(n_2)] - sm[at(n_1)]),
    );
    Ok(sm)
}

fn smooth_ends_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let yv = args
        .get("y")
        .ok_or_else(|| KernelError::new("argument \"y\" is missing, with no default"))?;
    let k = match args.get("k") {
        None => 3.0,
        Some(v) => match super::names::bare(v) {
            Value::Null => return Err(KernelError::new("argument is of length zero")),
            v => match v.as_f64_slice() {
                Some(s) if !s.is_empty() => s[0],
                Some(_) => return Err(KernelError::new("argument is of length zero")),
                // as.integer of text or a list element: NA here.
                None => NA,
            },
        },
    };
    let Some(k) = as_integer(k) else {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    };
    if k < 0 || k % 2 == 0 {
        return Err(KernelError::new("bandwidth 'k' must be >= 1 and odd!"));
    }
    if k / 2 < 1 {
        return Ok(yv.clone());
    }
    let y = match super::names::bare(yv) {
        // A logical y is read as numbers (R keeps it logical where no
        // mean is taken).
        v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
            v.as_f64_slice().unwrap_or_default().into_owned()
        }
        v => {
            return Err(KernelError::new(format!(
                "flowcast's smoothEnds() needs numbers for 'y', not {}",
                v.type_name()
            )))
        }
    };
    Ok(Value::Num(smooth_ends_r(&y, k as usize)?))
}

fn smooth_ends_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("y") {
        Some(Type::Num { len, .. }) => Type::Num {
            len: *len,
            value: None,
        },
        _ => Type::Any,
    })
}
