//! Vector functions: positions (`which`), tests (`any`, `all`, `is.na`),
//! choosing (`ifelse`, `pmin`, `pmax`), repeating and cutting (`rep`,
//! `head`, `tail`, `rev`), ordering (`sort`, `order`, `rank`, `unique`),
//! running results (`cumsum`, `diff`), `range`, `outer`, `tabulate`, the
//! labels (`paste`, `names`), sets (`duplicated`, `union`, …), missing
//! cases (`complete.cases`, `na.omit`), and text (`sprintf`, `format`,
//! `substr`, `grepl`, `sub`, `strsplit`, `trimws`, …).
//!
//! Results R types as integer (`which`, `order`, `tabulate`, ranks other
//! than averages) are doubles holding whole numbers, as everywhere in
//! flowcast; `exec::integer` knows which calls give integers.

mod cum;
mod cut;
mod diff;
mod ends;
mod format;
pub(crate) use format::{format_common, format_number, format_padded};
mod format_pval;
mod gl;
mod grep;
pub(crate) use grep::{choice, match_arg};
mod ifelse;
pub(crate) mod labels;
mod missing;
mod order;
pub(crate) use order::order_numbers;
mod outer;
mod parallel;
mod pmatch;
mod predicates;
mod pretty_num;
mod rank;
mod rep;
mod rle;
mod sequence;
mod sets;
pub(crate) mod sprintf;
pub(crate) use sprintf::format_g;
pub(crate) mod strtrim;
mod strwrap;
mod substr;
mod tabulate;
mod text;
mod to_string;
mod unique;
mod which;

use std::borrow::Cow;

use super::args::{ArgError, Args};
use super::{opt, req, Kernel, KernelError, Type, Value, DOTS};

const fn k(
    name: &'static str,
    params: &'static [super::Param],
    shape: super::ShapeFn,
    eval: super::EvalFn,
) -> Kernel {
    Kernel {
        name,
        params,
        random: false,
        shape,
        eval,
    }
}

const X: &[super::Param] = &[req("x")];

const SUB: &[super::Param] = &[
    req("pattern"),
    req("replacement"),
    req("x"),
    opt("ignore.case"),
    opt("perl"),
    opt("fixed"),
    opt("useBytes"),
];

/// regexpr's, gregexpr's and regexec's: R gives the three one signature.
const MATCH_TEXT: &[super::Param] = &[
    req("pattern"),
    req("text"),
    opt("ignore.case"),
    opt("perl"),
    opt("fixed"),
    opt("useBytes"),
];

pub(super) static KERNELS: &[Kernel] = &[
    k(
        "which",
        &[req("x"), opt("arr.ind"), opt("useNames")],
        which::which_shape,
        which::which_eval,
    ),
    k(
        "which.max",
        X,
        which::which_extreme_shape,
        which::which_extreme_eval,
    ),
    k(
        "which.min",
        X,
        which::which_extreme_shape,
        which::which_extreme_eval,
    ),
    k(
        "any",
        &[DOTS, opt("na.rm")],
        predicates::any_all_shape,
        predicates::any_all_eval,
    ),
    k(
        "all",
        &[DOTS, opt("na.rm")],
        predicates::any_all_shape,
        predicates::any_all_eval,
    ),
    k("is.na", X, predicates::is_na_shape, predicates::is_na_eval),
    k(
        "is.finite",
        X,
        predicates::finiteness_shape,
        predicates::finiteness_eval,
    ),
    k(
        "is.infinite",
        X,
        predicates::finiteness_shape,
        predicates::finiteness_eval,
    ),
    k(
        "is.nan",
        X,
        predicates::finiteness_shape,
        predicates::finiteness_eval,
    ),
    k(
        "anyNA",
        &[req("x"), opt("recursive")],
        predicates::any_na_shape,
        predicates::any_na_eval,
    ),
    k("rle", X, rle::rle_shape, rle::rle_eval),
    k(
        "inverse.rle",
        &[req("x"), DOTS],
        rle::inverse_rle_shape,
        rle::inverse_rle_eval,
    ),
    k(
        "ifelse",
        &[req("test"), req("yes"), req("no")],
        ifelse::shape,
        ifelse::eval,
    ),
    k(
        "pmin",
        &[DOTS, opt("na.rm")],
        parallel::shape,
        parallel::eval,
    ),
    k(
        "pmax",
        &[DOTS, opt("na.rm")],
        parallel::shape,
        parallel::eval,
    ),
    k(
        "rep",
        &[req("x"), opt("times"), opt("length.out"), opt("each")],
        rep::rep_shape,
        rep::rep_eval,
    ),
    // pmax and pmin on vectors without attributes: the same numbers.
    k(
        "pmin.int",
        &[DOTS, opt("na.rm")],
        parallel::shape,
        parallel::eval,
    ),
    k(
        "pmax.int",
        &[DOTS, opt("na.rm")],
        parallel::shape,
        parallel::eval,
    ),
    k(
        "rep.int",
        &[req("x"), req("times")],
        rep::rep_int_shape,
        rep::rep_int_eval,
    ),
    k(
        "rep_len",
        &[req("x"), req("length.out")],
        rep::rep_len_shape,
        rep::rep_len_eval,
    ),
    k(
        "head",
        &[req("x"), opt("n")],
        ends::head_tail_shape,
        ends::head_tail_eval,
    ),
    k(
        "tail",
        &[req("x"), opt("n")],
        ends::head_tail_shape,
        ends::head_tail_eval,
    ),
    k("rev", X, ends::rev_shape, ends::rev_eval),
    k(
        "sort",
        &[
            req("x"),
            opt("decreasing"),
            opt("na.last"),
            opt("method"),
            opt("index.return"),
        ],
        order::sort_shape,
        order::sort_eval,
    ),
    k(
        "is.unsorted",
        &[req("x"), opt("na.rm"), opt("strictly")],
        order::is_unsorted_shape,
        order::is_unsorted_eval,
    ),
    k(
        "order",
        &[DOTS, opt("na.last"), opt("decreasing"), opt("method")],
        order::order_shape,
        order::order_eval,
    ),
    k(
        "rank",
        &[req("x"), opt("na.last"), opt("ties.method")],
        rank::shape,
        rank::eval,
    ),
    k(
        "unique",
        &[req("x"), opt("incomparables"), opt("fromLast")],
        unique::shape,
        unique::eval,
    ),
    k("toupper", X, text::shape, text::case_eval),
    k(
        "casefold",
        &[req("x"), opt("upper")],
        text::casefold_shape,
        text::casefold_eval,
    ),
    k(
        "strtoi",
        &[req("x"), opt("base")],
        text::strtoi_shape,
        text::strtoi_eval,
    ),
    k(
        "sort.int",
        &[
            req("x"),
            opt("partial"),
            opt("na.last"),
            opt("decreasing"),
            opt("method"),
            opt("index.return"),
        ],
        order::sort_int_shape,
        order::sort_int_eval,
    ),
    k("tolower", X, text::shape, text::case_eval),
    k(
        "nchar",
        &[req("x"), opt("type"), opt("allowNA"), opt("keepNA")],
        text::shape,
        text::nchar_eval,
    ),
    k(
        "nzchar",
        &[req("x"), opt("keepNA")],
        text::nzchar_shape,
        text::nzchar_eval,
    ),
    k(
        "sprintf",
        &[req("fmt"), DOTS],
        sprintf::shape,
        sprintf::eval,
    ),
    k(
        "format",
        &[
            req("x"),
            opt("trim"),
            opt("digits"),
            opt("nsmall"),
            opt("justify"),
            opt("width"),
            opt("na.encode"),
            opt("scientific"),
            opt("big.mark"),
            opt("big.interval"),
            opt("small.mark"),
            opt("small.interval"),
            opt("decimal.mark"),
            opt("zero.print"),
            opt("drop0trailing"),
            DOTS,
        ],
        format::shape,
        format::eval,
    ),
    k(
        "formatC",
        &[
            req("x"),
            opt("digits"),
            opt("width"),
            opt("format"),
            opt("flag"),
            opt("mode"),
            opt("big.mark"),
            opt("big.interval"),
            opt("small.mark"),
            opt("small.interval"),
            opt("decimal.mark"),
            opt("preserve.width"),
            opt("zero.print"),
            opt("replace.zero"),
            opt("drop0trailing"),
        ],
        format::formatc_shape,
        format::formatc_eval,
    ),
    k(
        "format.pval",
        &[req("pv"), opt("digits"), opt("eps"), opt("na.form")],
        format_pval::shape,
        format_pval::eval,
    ),
    k(
        "prettyNum",
        &[
            req("x"),
            opt("big.mark"),
            opt("big.interval"),
            opt("small.mark"),
            opt("small.interval"),
            opt("decimal.mark"),
            opt("input.d.mark"),
            opt("preserve.width"),
            opt("zero.print"),
            opt("replace.zero"),
            opt("drop0trailing"),
            opt("is.cmplx"),
            DOTS,
        ],
        pretty_num::shape,
        pretty_num::eval,
    ),
    k(
        "substr",
        &[req("x"), req("start"), req("stop")],
        substr::substr_shape,
        substr::substr_eval,
    ),
    k(
        "substring",
        &[req("text"), req("first"), opt("last")],
        substr::substring_shape,
        substr::substring_eval,
    ),
    k(
        "grepl",
        &[
            req("pattern"),
            req("x"),
            opt("ignore.case"),
            opt("perl"),
            opt("fixed"),
            opt("useBytes"),
        ],
        grep::grepl_shape,
        grep::grep_eval,
    ),
    k(
        "grep",
        &[
            req("pattern"),
            req("x"),
            opt("ignore.case"),
            opt("perl"),
            opt("value"),
            opt("fixed"),
            opt("useBytes"),
            opt("invert"),
        ],
        grep::grep_shape,
        grep::grep_eval,
    ),
    k("sub", SUB, grep::sub_shape, grep::sub_eval),
    k("gsub", SUB, grep::sub_shape, grep::sub_eval),
    k(
        "regexpr",
        MATCH_TEXT,
        grep::regexpr_shape,
        grep::regexpr_eval,
    ),
    k(
        "gregexpr",
        MATCH_TEXT,
        grep::gregexpr_shape,
        grep::gregexpr_eval,
    ),
    k(
        "regexec",
        MATCH_TEXT,
        grep::regexec_shape,
        grep::regexec_eval,
    ),
    k(
        "regmatches",
        &[req("x"), req("m"), opt("invert")],
        grep::regmatches_shape,
        grep::regmatches_eval,
    ),
    k(
        "strsplit",
        &[
            req("x"),
            req("split"),
            opt("fixed"),
            opt("perl"),
            opt("useBytes"),
        ],
        grep::strsplit_shape,
        grep::strsplit_eval,
    ),
    k(
        "trimws",
        &[req("x"), opt("which"), opt("whitespace")],
        grep::sub_shape,
        grep::trimws_eval,
    ),
    k(
        "startsWith",
        &[req("x"), req("prefix")],
        text::affix_shape,
        text::affix_eval,
    ),
    k(
        "endsWith",
        &[req("x"), req("suffix")],
        text::affix_shape,
        text::affix_eval,
    ),
    k(
        "strrep",
        &[req("x"), req("times")],
        text::strrep_shape,
        text::strrep_eval,
    ),
    k(
        "chartr",
        &[req("old"), req("new"), req("x")],
        text::chartr_shape,
        text::chartr_eval,
    ),
    k(
        "strtrim",
        &[req("x"), req("width")],
        strtrim::strtrim_shape,
        strtrim::strtrim_eval,
    ),
    k(
        "strwrap",
        &[
            req("x"),
            opt("width"),
            opt("indent"),
            opt("exdent"),
            opt("prefix"),
            opt("simplify"),
            opt("initial"),
        ],
        strwrap::strwrap_shape,
        strwrap::strwrap_eval,
    ),
    k(
        "toString",
        &[req("x"), opt("width"), DOTS],
        to_string::to_string_shape,
        to_string::to_string_eval,
    ),
    k(
        "pmatch",
        &[req("x"), req("table"), opt("nomatch"), opt("duplicates.ok")],
        pmatch::match_shape,
        pmatch::pmatch_eval,
    ),
    k(
        "charmatch",
        &[req("x"), req("table"), opt("nomatch")],
        pmatch::match_shape,
        pmatch::charmatch_eval,
    ),
    k(
        "sequence",
        &[req("nvec"), opt("from"), opt("by"), DOTS],
        sequence::sequence_shape,
        sequence::sequence_eval,
    ),
    k(
        "gl",
        &[
            req("n"),
            req("k"),
            opt("length"),
            opt("labels"),
            opt("ordered"),
        ],
        gl::gl_shape,
        gl::gl_eval,
    ),
    k(
        "cut",
        &[
            req("x"),
            req("breaks"),
            opt("labels"),
            opt("include.lowest"),
            opt("right"),
            opt("dig.lab"),
            opt("ordered_result"),
            DOTS,
        ],
        cut::shape,
        cut::eval,
    ),
    k(
        "duplicated",
        &[req("x"), opt("incomparables"), opt("fromLast")],
        sets::duplicated_shape,
        sets::duplicated_eval,
    ),
    k(
        "anyDuplicated",
        &[req("x"), opt("incomparables"), opt("fromLast"), DOTS],
        sets::any_duplicated_shape,
        sets::any_duplicated_eval,
    ),
    k(
        "setequal",
        &[req("x"), req("y")],
        sets::setequal_shape,
        sets::setequal_eval,
    ),
    k(
        "union",
        &[req("x"), req("y")],
        sets::set_shape,
        sets::set_eval,
    ),
    k(
        "intersect",
        &[req("x"), req("y")],
        sets::set_shape,
        sets::set_eval,
    ),
    k(
        "setdiff",
        &[req("x"), req("y")],
        sets::set_shape,
        sets::set_eval,
    ),
    k(
        "complete.cases",
        &[DOTS],
        missing::complete_cases_shape,
        missing::complete_cases_eval,
    ),
    k(
        "na.omit",
        &[req("object"), DOTS],
        missing::na_omit_shape,
        missing::na_omit_eval,
    ),
    k(
        "na.exclude",
        &[req("object"), DOTS],
        missing::na_omit_shape,
        missing::na_exclude_eval,
    ),
    k(
        "na.fail",
        &[req("object"), DOTS],
        missing::na_same_shape,
        missing::na_fail_eval,
    ),
    k(
        "na.pass",
        &[req("object"), DOTS],
        missing::na_same_shape,
        missing::na_pass_eval,
    ),
    k("cumsum", X, cum::cum_shape, cum::cum_eval),
    k("cumprod", X, cum::cum_shape, cum::cum_eval),
    k("cummax", X, cum::cum_shape, cum::cum_eval),
    k("cummin", X, cum::cum_shape, cum::cum_eval),
    k(
        "prod",
        &[DOTS, opt("na.rm")],
        cum::prod_shape,
        cum::prod_eval,
    ),
    k(
        "diff",
        &[req("x"), opt("lag"), opt("differences")],
        diff::shape,
        diff::eval,
    ),
    k(
        "range",
        &[DOTS, opt("na.rm"), opt("finite")],
        cum::range_shape,
        cum::range_eval,
    ),
    k(
        "outer",
        &[req("X"), req("Y"), opt("FUN"), DOTS],
        outer::shape,
        outer::eval,
    ),
    k(
        "tabulate",
        &[req("bin"), opt("nbins")],
        tabulate::shape,
        tabulate::eval,
    ),
    k(
        "paste",
        &[DOTS, opt("sep"), opt("collapse")],
        labels::paste_shape,
        labels::paste_eval,
    ),
    k(
        "paste0",
        &[DOTS, opt("collapse")],
        labels::paste_shape,
        labels::paste_eval,
    ),
    k(
        "setNames",
        &[opt("object"), opt("nm")],
        labels::set_names_shape,
        labels::set_names_eval,
    ),
    k(
        "colnames",
        &[req("x"), opt("do.NULL"), opt("prefix")],
        labels::colnames_shape,
        labels::colnames_eval,
    ),
    k(
        "rownames",
        &[req("x"), opt("do.NULL"), opt("prefix")],
        labels::rownames_shape,
        labels::rownames_eval,
    ),
];

/// Argument `name`, or NULL when absent.
fn arg_or_null<'a>(args: &'a Args<&Value>, name: &str) -> &'a Value {
    args.get(name).unwrap_or(&Value::Null)
}

/// The numbers of argument `name` (logicals as 0/1/NA); R's error for text.
fn numbers<'a>(args: &'a Args<&Value>, name: &str) -> Result<Cow<'a, [f64]>, KernelError> {
    let v = arg_or_null(args, name);
    if matches!(v, Value::Null) {
        return Ok(Cow::Borrowed(&[]));
    }
    v.as_f64_slice().ok_or_else(|| {
        KernelError::new(format!(
            "non-numeric argument to {}(): {}",
            args.func,
            v.type_name()
        ))
    })
}

/// Checks that argument `name` is numeric or logical; its length.
fn numeric_type(args: &Args<Type>, name: &str) -> Result<Option<usize>, ArgError> {
    match args.ty(name) {
        None | Some(Type::Null) => Ok(Some(0)),
        Some(t) if t.is_numeric() => Ok(t.len()),
        Some(t) => Err(args.error(
            name,
            format!("non-numeric argument to {}(): {}", args.func, t.describe()),
        )),
    }
}

/// A whole-number argument (`n`, `lag`, `length.out`), truncated as R's
/// `as.integer` truncates; `default` when absent.
fn int_arg(args: &Args<&Value>, name: &str, default: i64) -> Result<i64, KernelError> {
    match args.get(name) {
        None => Ok(default),
        Some(v) => match v.as_scalar() {
            Some(x) if x.is_finite() && x.abs() < 9.0e15 => Ok(x.trunc() as i64),
            _ => Err(KernelError::new(format!(
                "invalid '{name}' argument to {}()",
                args.func
            ))),
        },
    }
}

/// The constant whole number of a shape argument, if known.
fn const_int(args: &Args<Type>, name: &str) -> Option<i64> {
    args.ty(name)
        .and_then(Type::const_scalar)
        .filter(|x| x.is_finite() && x.abs() < 9.0e15)
        .map(|x| x.trunc() as i64)
}

/// A vector of the same kind as `x` with the elements at `pos` (0-based).
pub(super) fn pick(x: &Value, pos: &[usize]) -> Value {
    match x {
        Value::Str(s) => Value::Str(pos.iter().map(|&i| s[i].clone()).collect()),
        Value::Bool(_) | Value::BoolMat(_) => {
            let l = x.as_logicals().unwrap_or_default();
            Value::Bool(pos.iter().map(|&i| l[i]).collect())
        }
        Value::Complex(z) => Value::Complex(pos.iter().map(|&i| z[i]).collect()),
        Value::ComplexMat(m) => Value::Complex(pos.iter().map(|&i| m.as_slice()[i]).collect()),
        Value::Factor(f) => Value::Factor(super::value::Factor {
            codes: pos.iter().map(|&i| f.codes[i]).collect(),
            levels: f.levels.clone(),
            ordered: f.ordered,
        }),
        Value::List(l) => Value::List(super::value::List {
            class: None,
            names: l
                .names
                .as_ref()
                .map(|n| pos.iter().map(|&i| n[i].clone()).collect()),
            items: pos.iter().map(|&i| l.items[i].clone()).collect(),
            row_names: None,
        }),
        other => {
            let d = other.as_f64_slice().unwrap_or_default();
            Value::Num(pos.iter().map(|&i| d[i]).collect())
        }
    }
}

/// The vector type of `x`'s elements with length `len`.
pub(super) fn like(x: &Type, len: Option<usize>) -> Type {
    match x {
        Type::Str { .. } | Type::StrMat { .. } => Type::Str { len, value: None },
        Type::Bool { .. } | Type::BoolMat { .. } => Type::logical(len),
        Type::Complex { .. } | Type::ComplexMat { .. } => Type::Complex { len },
        Type::Factor {
            levels, ordered, ..
        } => Type::Factor {
            len,
            levels: levels.clone(),
            ordered: *ordered,
        },
        Type::List { elem, .. } => Type::List {
            len,
            elem: elem.clone(),
        },
        Type::Any | Type::Record { .. } => Type::Any,
        _ => Type::Num { len, value: None },
    }
}
