//! `sort` and `order`: R's stable orders. Ties keep their original order
//! (`order`'s radix method, the default for numbers, is stable in both
//! directions); NA and NaN go last (`na.last = TRUE`), first (`FALSE`) or
//! are dropped (`NA`), in their original order, whatever `decreasing` is.
//! Text compares by [`collate::compare`], as R's shell sort compares in a
//! locale; NA text sorts as NA.

use std::cmp::Ordering;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::collate;
use crate::kernels::factor::text_is_na;
use crate::kernels::names::bare;
use crate::kernels::{registry, Ctx, KernelError, ShapeCtx, Type, Value};

use super::{like, pick};

/// One sort key: numbers (logicals as 0/1, NA as NaN; text as its rank
/// in the collation order, so each distinct text is collated once).
pub(super) struct Key<'a>(std::borrow::Cow<'a, [f64]>);

impl Key<'_> {
    pub(super) fn of(v: &Value) -> Result<Key<'_>, KernelError> {
        Key::of_in(v, collate::compare)
    }

    /// [`Key::of`] with text in the order `cmp` gives.
    fn of_in(v: &Value, cmp: fn(&str, &str) -> Ordering) -> Result<Key<'_>, KernelError> {
        match v {
            Value::Str(s) => {
                let ranks = collate::ranks(s, cmp);
                let na = |t: &String| text_is_na(t);
                Ok(Key(std::borrow::Cow::Owned(
                    s.iter()
                        .zip(ranks)
                        .map(|(t, r)| if na(t) { f64::NAN } else { f64::from(r) })
                        .collect(),
                )))
            }
            Value::Null => Ok(Key(std::borrow::Cow::Borrowed(&[]))),
            // A factor sorts by its codes, the order of its levels.
            Value::Factor(f) => Ok(Key(std::borrow::Cow::Owned(f.integer_codes()))),
            other => other.as_f64_slice().map(Key).ok_or_else(|| {
                KernelError::new(format!("argument is not a vector: {}", other.type_name()))
            }),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    pub(super) fn is_na(&self, i: usize) -> bool {
        self.0[i].is_nan()
    }

    /// Compares two non-NA entries.
    pub(super) fn cmp(&self, i: usize, j: usize) -> Ordering {
        self.0[i].partial_cmp(&self.0[j]).unwrap_or(Ordering::Equal)
    }
}

/// `na.last`: `Some(true)` last, `Some(false)` first, `None` dropped.
fn na_last(args: &Args<&Value>, default: Option<bool>) -> Result<Option<bool>, KernelError> {
    match args.get("na.last") {
        None => Ok(default),
        Some(v) => match v {
            Value::Bool(b) if b.len() == 1 => Ok(b[0]),
            other => match other.as_scalar() {
                Some(x) if x.is_nan() => Ok(None),
                Some(x) => Ok(Some(x != 0.0)),
                None => Err(KernelError::new("invalid 'na.last' argument")),
            },
        },
    }
}

/// The 0-based order of rows by `keys`.
pub(super) fn order_of(
    keys: &[Key],
    decreasing: bool,
    na_last: Option<bool>,
) -> Result<Vec<usize>, KernelError> {
    let n = keys.first().map_or(0, Key::len);
    if keys.iter().any(|k| k.len() != n) {
        return Err(KernelError::new("argument lengths differ"));
    }
    if let [Key(v)] = keys {
        return Ok(order_numbers(v, decreasing, na_last));
    }
    order_each(keys, &vec![decreasing; keys.len()], na_last)
}

/// [`order_of`] with each key in its own direction (`decreasing[k]`), as
/// R's radix order takes them.
fn order_each(
    keys: &[Key],
    decreasing: &[bool],
    na_last: Option<bool>,
) -> Result<Vec<usize>, KernelError> {
    let n = keys.first().map_or(0, Key::len);
    if keys.iter().any(|k| k.len() != n) {
        return Err(KernelError::new("argument lengths differ"));
    }
    let mut idx: Vec<usize> = (0..n)
        .filter(|&i| na_last.is_some() || !keys.iter().any(|k| k.is_na(i)))
        .collect();
    let last = na_last != Some(false);
    idx.sort_by(|&i, &j| {
        for (k, &decreasing) in keys.iter().zip(decreasing) {
            let o = match (k.is_na(i), k.is_na(j)) {
                (true, true) => Ordering::Equal,
                (true, false) => {
                    if last {
                        Ordering::Greater
                    } else {
                        Ordering::Less
                    }
                }
                (false, true) => {
                    if last {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    }
                }
                (false, false) => {
                    let o = k.cmp(i, j);
                    if decreasing {
                        o.reverse()
                    } else {
                        o
                    }
                }
            };
            if o != Ordering::Equal {
                return o;
            }
        }
        Ordering::Equal
    });
    Ok(idx)
}

/// A number (not NaN) as an integer of the same order: the sign bit set
/// for the positive, all bits flipped for the negative.
fn order_key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

/// [`order_of`] for one numeric key, as fast as R's radix sort: each
/// number becomes an integer of the same order (−0 and 0 one value), and
/// pairs of it and the index sort without comparisons through the slice
/// (ties stay in index order, so the order is R's stable one).
pub(crate) fn order_numbers(v: &[f64], decreasing: bool, na_last: Option<bool>) -> Vec<usize> {
    let ordered = |x: f64| {
        let k = order_key(x + 0.0);
        if decreasing {
            !k
        } else {
            k
        }
    };
    let mut pairs: Vec<(u64, usize)> = v
        .iter()
        .enumerate()
        .filter(|(_, x)| !x.is_nan())
        .map(|(i, &x)| (ordered(x), i))
        .collect();
    pairs.sort_unstable();
    let nas = (0..v.len()).filter(|&i| v[i].is_nan());
    let sorted = pairs.into_iter().map(|(_, i)| i);
    match na_last {
        None => sorted.collect(),
        Some(true) => sorted.chain(nas).collect(),
        Some(false) => nas.chain(sorted).collect(),
    }
}

pub(super) fn order_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    // The radix method orders text by bytes, as in the C locale; the
    // others (and "auto", which picks shell for text) collate.
    let method = crate::kernels::filter::choice(args.get("method"), &["auto", "shell", "radix"])?;
    let cmp: fn(&str, &str) -> Ordering = if method == "radix" {
        |a, b| a.cmp(b)
    } else {
        collate::compare
    };
    let keys = args
        .dots()
        .map(|(_, v)| Key::of_in(v, cmp))
        .collect::<Result<Vec<_>, _>>()?;
    if keys.is_empty() {
        return Ok(Value::Num(Vec::new()));
    }
    // R's order: "auto" is radix unless some key is text; only radix
    // takes a `decreasing` per key (recycled along them).
    let radix = method == "radix"
        || (method == "auto" && !args.dots().any(|(_, v)| matches!(bare(v), Value::Str(_))));
    let decreasing = match args.get("decreasing").map(bare) {
        Some(Value::Bool(d)) if d.len() > 1 => {
            if !radix {
                return Err(KernelError::new(
                    "'decreasing' of length > 1 is only for method = \"radix\"",
                ));
            }
            d.iter()
                .map(|b| {
                    b.ok_or_else(|| KernelError::new("'decreasing' elements must be TRUE or FALSE"))
                })
                .collect::<Result<Vec<bool>, _>>()?
        }
        _ => vec![args.bool_or("decreasing", false)?],
    };
    let na_last = na_last(args, Some(true))?;
    let idx = if let [d] = decreasing[..] {
        order_of(&keys, d, na_last)?
    } else {
        let each: Vec<bool> = (0..keys.len())
            .map(|k| decreasing[k % decreasing.len()])
            .collect();
        order_each(&keys, &each, na_last)?
    };
    Ok(Value::Num(idx.iter().map(|&i| (i + 1) as f64).collect()))
}

pub(super) fn order_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mut len = None;
    for (k, (_, t)) in args.dots().enumerate() {
        if matches!(
            t,
            Type::Record { .. } | Type::List { .. } | Type::Formula { .. } | Type::Complex { .. }
        ) {
            return Err(args.dots_error(k, format!("argument is not a vector: {}", t.describe())));
        }
        if let (Some(a), Some(b)) = (len, t.len()) {
            if a != b {
                return Err(args.dots_error(k, "argument lengths differ"));
            }
        }
        len = len.or(t.len());
    }
    // With `na.last = NA`, NAs are dropped: the length is known only then.
    let dropping = args
        .ty("na.last")
        .and_then(Type::const_nums)
        .is_some_and(|v| v.first().is_some_and(|x| x.is_nan()));
    Ok(Type::Num {
        len: if dropping { None } else { len },
        value: None,
    })
}

pub(super) fn sort_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    // sort.default hands `method` and `index.return` on to sort.int.
    if args.has("method") || args.has("index.return") {
        return sort_int_eval(args, ctx);
    }
    let x = super::arg_or_null(args, "x");
    if matches!(x, Value::Null) {
        return Ok(Value::Null);
    }
    if matches!(x, Value::List(_) | Value::Formula(_) | Value::Lang(_)) {
        return Err(KernelError::new("'x' must be atomic"));
    }
    let decreasing = args.bool_or("decreasing", false)?;
    let na_last = na_last(args, None)?;
    if let Value::Num(v) = x {
        if let Some(sorted) = sort_numbers(v, decreasing, na_last) {
            return Ok(Value::Num(sorted));
        }
    }
    let key = Key::of(x)?;
    let idx = order_of(&[key], decreasing, na_last)?;
    Ok(pick(x, &idx))
}

/// `sort` of plain numbers: the values themselves sorted as integers of
/// the same order, with no index to carry (half the bytes to move of
/// [`order_numbers`]). Equal numbers are the same bits, so stability
/// cannot show, except between −0 and 0: with a −0 the general path is
/// taken (`None`). NA and NaN keep their original order.
fn sort_numbers(v: &[f64], decreasing: bool, na_last: Option<bool>) -> Option<Vec<f64>> {
    if v.iter().any(|x| *x == 0.0 && x.is_sign_negative()) {
        return None;
    }
    let from_key = |k: u64| f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k });
    let mut keys: Vec<u64> = v
        .iter()
        .filter(|x| !x.is_nan())
        .map(|&x| order_key(x))
        .collect();
    keys.sort_unstable();
    let sorted = keys.into_iter().map(from_key);
    let sorted: Vec<f64> = if decreasing {
        sorted.rev().collect()
    } else {
        sorted.collect()
    };
    let nas = v.iter().copied().filter(|x| x.is_nan());
    Some(match na_last {
        None => sorted,
        Some(true) => sorted.into_iter().chain(nas).collect(),
        Some(false) => nas.chain(sorted).collect(),
    })
}

pub(super) fn sort_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    if args.has("method") || args.has("index.return") {
        return sort_int_shape(args, ctx);
    }
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    match &x {
        Type::Null => Ok(Type::Null),
        Type::Record { .. } | Type::List { .. } | Type::Formula { .. } => {
            Err(args.error("x", format!("'x' must be atomic, not {}", x.describe())))
        }
        // NAs are dropped by default: the length is known only without any.
        Type::Str {
            len,
            value: Some(v),
        } if !args.has("na.last") && !v.iter().any(|t| text_is_na(t)) => Ok(like(&x, *len)),
        _ => Ok(like(&x, None)),
    }
}

/// The arguments of sort.int that `sort` takes, for sort's kernel.
fn sort_args<'a>(args: &'a Args<&'a Value>) -> Result<Args<&'a Value>, KernelError> {
    let mut given = Vec::new();
    for name in ["x", "decreasing", "na.last"] {
        if let Some(v) = args.get(name) {
            given.push((Some(name.to_string()), v));
        }
    }
    let sort = registry().get("sort").expect("sort is registered");
    Args::match_call(sort.name, sort.params, given).map_err(|e| KernelError::new(e.message))
}

const SORT_METHODS: &[&str] = &["auto", "shell", "quick", "radix"];

pub(super) fn sort_int_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    // `sort` hands its call on without a `partial`.
    if args
        .get_if_formal("partial")
        .is_some_and(|p| !matches!(p, Value::Null))
    {
        return Err(KernelError::new(
            "flowcast's sort.int() does not do partial sorting",
        ));
    }
    // The methods order numbers alike; text they order by collation,
    // except the radix sort, which orders by bytes as in the C locale.
    let method = crate::kernels::filter::choice(args.get("method"), SORT_METHODS)?;
    let x = bare(args.get("x").unwrap_or(&Value::Null));
    let index = match args.get("index.return") {
        Some(v) => crate::kernels::logical::if_condition(v)?,
        None => false,
    };
    // sort.default sorts a factor by order(), without the index.
    if index && !matches!(x, Value::Factor(_)) {
        return sort_with_index(x, args, method);
    }
    if let (Some(Value::Str(s)), "radix") = (args.get("x").map(bare), method) {
        return radix_text(s, args);
    }
    let sort = registry().get("sort").expect("sort is registered");
    sort.call(&sort_args(args)?, ctx)
}

/// `sort.int(x, index.return = TRUE)`: `list(x = sorted, ix = order)`.
/// With `na.last = NA` the NAs are dropped first, so `ix` counts the
/// values left; the radix method (the default for numbers and logicals)
/// also takes `na.last = TRUE` or `FALSE`, ordering every value, where
/// the others refuse it. Text sorts in byte order by the radix method.
fn sort_with_index(x: &Value, args: &Args<&Value>, method: &str) -> Result<Value, KernelError> {
    if matches!(x, Value::List(_) | Value::Formula(_)) {
        return Err(KernelError::new("'x' must be atomic"));
    }
    let radix = method == "radix"
        || (method == "auto" && matches!(x, Value::Num(_) | Value::Mat(_) | Value::Bool(_)));
    let na_last = na_last(args, None)?;
    if na_last.is_some() && !radix {
        return Err(KernelError::new("'index.return' only for 'na.last = NA'"));
    }
    let decreasing = args.bool_or("decreasing", false)?;
    let all = Key::of(x)?;
    let y = match na_last {
        None => pick(
            x,
            &(0..all.len())
                .filter(|&i| !all.is_na(i))
                .collect::<Vec<_>>(),
        ),
        Some(_) => x.clone(),
    };
    let key = if radix && matches!(y, Value::Str(_)) {
        Key::of_in(&y, |a, b| a.cmp(b))?
    } else {
        Key::of(&y)?
    };
    let o = order_of(&[key], decreasing, na_last)?;
    Ok(Value::List(crate::kernels::value::List::named(vec![
        ("x", pick(&y, &o)),
        (
            "ix",
            Value::Num(o.iter().map(|&i| (i + 1) as f64).collect()),
        ),
    ])))
}

/// `sort.int(x, method = "radix")` of text: byte order, NA dropped or
/// put first or last as `na.last` says.
fn radix_text(s: &[String], args: &Args<&Value>) -> Result<Value, KernelError> {
    let decreasing = args.bool_or("decreasing", false)?;
    let na_last = match args.get("na.last").map(bare) {
        None => None,
        Some(v) => v.as_logicals().and_then(|l| l.first().copied().flatten()),
    };
    let mut kept: Vec<String> = s.iter().filter(|t| *t != "NA").cloned().collect();
    kept.sort();
    if decreasing {
        kept.reverse();
    }
    let nas = vec!["NA".to_string(); s.len() - kept.len()];
    Ok(Value::Str(match na_last {
        None => kept,
        Some(true) => kept.into_iter().chain(nas).collect(),
        Some(false) => nas.into_iter().chain(kept).collect(),
    }))
}

pub(super) fn sort_int_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    // The index's list, or text in byte order: known at the run.
    if args.has("index.return") || args.has("method") {
        return Ok(Type::Any);
    }
    let sort = registry().get("sort").expect("sort is registered");
    let mut given = Vec::new();
    for name in ["x", "decreasing", "na.last"] {
        if let Some(t) = args.ty(name) {
            given.push((Some(name.to_string()), t.clone()));
        }
    }
    let matched = Args::match_call(sort.name, sort.params, given)?;
    (sort.shape)(&matched, ctx).map_err(|e| ArgError {
        arg: args.position("x"),
        message: e.message,
    })
}

/// R's `is.unsorted(x, na.rm, strictly)`: FALSE for fewer than two
/// elements, NA where an NA is kept, else whether some element is above
/// (or, `strictly`, not below) the next, as do_isunsorted compares: text
/// in the collation `sort` uses, a factor by its codes. A list is NA, as
/// R's for a non-atomic vector.
pub(super) fn is_unsorted_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = bare(args.get("x").unwrap_or(&Value::Null));
    let na_rm = args.bool_or("na.rm", false)?;
    let strictly = args.bool_or("strictly", false)?;
    if x.len() <= 1 {
        return Ok(Value::flag(false));
    }
    let out_of_order = |o: Ordering| o == Ordering::Greater || (strictly && o == Ordering::Equal);
    let unsorted = match x {
        Value::Str(s) => {
            let kept: Vec<&String> = s.iter().filter(|t| !text_is_na(t)).collect();
            if kept.len() < s.len() && !na_rm {
                return Ok(Value::Bool(vec![None]));
            }
            kept.windows(2)
                .any(|w| out_of_order(collate::compare(w[0], w[1])))
        }
        Value::Factor(f) => {
            if f.codes.iter().any(Option::is_none) && !na_rm {
                return Ok(Value::Bool(vec![None]));
            }
            let kept: Vec<u32> = f.codes.iter().flatten().copied().collect();
            kept.windows(2).any(|w| out_of_order(w[0].cmp(&w[1])))
        }
        v => match v.as_f64_slice() {
            Some(d) => {
                if d.iter().any(|v| v.is_nan()) && !na_rm {
                    return Ok(Value::Bool(vec![None]));
                }
                let kept: Vec<f64> = d.iter().copied().filter(|v| !v.is_nan()).collect();
                kept.windows(2)
                    .any(|w| out_of_order(w[0].partial_cmp(&w[1]).unwrap_or(Ordering::Equal)))
            }
            None => return Ok(Value::Bool(vec![None])),
        },
    };
    Ok(Value::flag(unsorted))
}

pub(super) fn is_unsorted_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::logical(Some(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::value::NA;

    /// The fast numeric sort gives what ordering the values gives, NA and
    /// NaN in their original order, and leaves −0 to the general path.
    #[test]
    fn sort_numbers_is_sorting_by_order() {
        let v = [
            3.0,
            NA,
            -1.5,
            f64::NAN,
            2.0,
            f64::INFINITY,
            -f64::INFINITY,
            2.0,
        ];
        for decreasing in [false, true] {
            for na_last in [None, Some(true), Some(false)] {
                let fast = sort_numbers(&v, decreasing, na_last).unwrap();
                let by_order: Vec<f64> = order_numbers(&v, decreasing, na_last)
                    .into_iter()
                    .map(|i| v[i])
                    .collect();
                let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fast), bits(&by_order), "{decreasing} {na_last:?}");
            }
        }
        assert_eq!(sort_numbers(&[1.0, -0.0, 0.0], false, None), None);
    }
}
