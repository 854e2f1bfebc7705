//! R's recycling of a vectorised call's arguments (`dnorm(x, mean, sd)`,
//! `rbinom(n, size, prob)`): element i of the result reads element
//! i mod len of each argument.

use super::alloc::vec_with_capacity;
use super::value::{is_na, NA};
use super::KernelError;

/// The arguments of a vectorised call, read a row at a time: each row
/// holds every argument's next element, an argument wrapping to its start
/// when it runs out. Stepping replaces a division per argument and
/// element, which costs as much as the density itself.
pub struct Recycled<'a> {
    columns: Vec<&'a [f64]>,
    at: Vec<usize>,
    row: Vec<f64>,
}

impl<'a> Recycled<'a> {
    /// `columns` must not be empty (a call with an empty argument has no
    /// rows to read).
    pub fn new(columns: Vec<&'a [f64]>) -> Recycled<'a> {
        let k = columns.len();
        Recycled {
            columns,
            at: vec![0; k],
            row: vec![f64::NAN; k],
        }
    }

    /// The next row.
    pub fn next_row(&mut self) -> &[f64] {
        for ((slot, c), at) in self.row.iter_mut().zip(&self.columns).zip(&mut self.at) {
            if let Some(&v) = c.get(*at) {
                *slot = v;
            }
            *at += 1;
            if *at >= c.len() {
                *at = 0;
            }
        }
        &self.row
    }
}

/// `f(x, p)` for each of `n` rows of `xs` and the parameters `params`,
/// recycled; and whether some value is a NaN made from arguments that were
/// not (R's warning "NaNs produced"). Every argument must be non-empty
/// when `n` is not 0.
pub fn map_rows(
    xs: &[f64],
    params: &[&[f64]],
    n: usize,
    mut f: impl FnMut(f64, &[f64]) -> f64,
) -> Result<(Vec<f64>, bool), KernelError> {
    let mut out = vec_with_capacity(n)?;
    let mut nan = false;
    // R's `if_NA_Math2_set` and kin (distn.c): an NA argument gives NA and
    // a NaN one NaN, before the function is called.
    let mut f = |x: f64, p: &[f64]| {
        if x.is_nan() || p.iter().any(|v| v.is_nan()) {
            if is_na(x) || p.iter().any(|&v| is_na(v)) {
                NA
            } else {
                f64::NAN
            }
        } else {
            f(x, p)
        }
    };
    if xs.len() == n && params.iter().all(|p| p.len() == 1) {
        // The common call: one value of each parameter for every x.
        let p: Vec<f64> = params.iter().map(|v| v[0]).collect();
        out.extend(xs.iter().map(|&x| f(x, &p)));
        nan = !p.iter().any(|v| v.is_nan())
            && out.iter().zip(xs).any(|(y, x)| y.is_nan() && !x.is_nan());
        return Ok((out, nan));
    }
    let mut rows = Recycled::new(std::iter::once(xs).chain(params.iter().copied()).collect());
    for _ in 0..n {
        let (&x, p) = rows.next_row().split_first().unwrap_or((&f64::NAN, &[]));
        let y = f(x, p);
        nan |= y.is_nan() && !x.is_nan() && !p.iter().any(|v| v.is_nan());
        out.push(y);
    }
    Ok((out, nan))
}

/// The length of the result: R recycles every argument to the longest
/// (none empty), as its `math2`/`math3` do.
pub fn recycled_len(lens: &[usize]) -> usize {
    if lens.contains(&0) {
        0
    } else {
        lens.iter().copied().max().unwrap_or(0)
    }
}

/// The type of a vectorised call of numeric arguments `first` and `rest`
/// (`pwilcox(q, m, n)`): as long as the longest, a matrix when `first` is
/// one of that length.
pub fn recycled_shape(
    args: &super::args::Args<super::Type>,
    first: &str,
    rest: &[&str],
) -> Result<super::Type, super::args::ArgError> {
    use super::Type;
    let mut lens = Vec::new();
    for name in std::iter::once(first).chain(rest.iter().copied()) {
        match args.ty(name) {
            None => {}
            Some(Type::Any) => return Ok(Type::Any),
            Some(t) if t.is_numeric() => lens.push(t.len()),
            Some(t) => {
                return Err(args.error(
                    name,
                    format!(
                        "Non-numeric argument to mathematical function: {}",
                        t.describe()
                    ),
                ))
            }
        }
    }
    let known: Option<Vec<usize>> = lens.into_iter().collect();
    let Some(lens) = known else {
        return Ok(Type::num_unknown());
    };
    let n = recycled_len(&lens);
    Ok(match args.ty(first) {
        Some(t @ Type::Mat { .. }) if t.len() == Some(n) => t.clone(),
        _ => Type::num(n),
    })
}
