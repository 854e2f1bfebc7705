//! Run-time values: what a step evaluates to, R's data model reduced to what
//! the built-in functions need.
//!
//! R has no scalars: a number is a numeric vector of length one. Integers are
//! stored as `f64` (every value R prints as an integer is exact in `f64`), and
//! NA is R's own NaN payload so it survives arithmetic the way R's does.

use nalgebra::DMatrix;
use num_complex::Complex64;

/// R's `NA_real_`: a NaN whose low word is 1954.
pub const NA: f64 = f64::from_bits(0x7FF0_0000_0000_07A2);

/// True for R's NA (not for other NaNs).
pub fn is_na(x: f64) -> bool {
    x.is_nan() && (x.to_bits() & 0xFFFF_FFFF) == 1954
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    /// A numeric vector (a scalar is a vector of length one).
    Num(Vec<f64>),
    /// A numeric matrix, column-major like R.
    Mat(DMatrix<f64>),
    Complex(Vec<Complex64>),
    ComplexMat(DMatrix<Complex64>),
    Str(Vec<String>),
    /// A character matrix (`matrix(letters[1:6], 2)`, `do.call(rbind,
    /// strsplit(...))`), column-major like R.
    StrMat(DMatrix<String>),
    /// R's logical vector: `None` is `NA`.
    Bool(Vec<Option<bool>>),
    /// A logical matrix (`m > 0`), column-major like R.
    BoolMat(DMatrix<Option<bool>>),
    /// A generic vector: a loop's result, or an R object with named fields
    /// and a class (`htest`, `eigen`, `svd`, `qr`, `prcomp`, `dist`,
    /// `hclust`, `kmeans`, `lm`).
    List(List),
    /// A model formula with its variables already evaluated.
    Formula(Formula),
    /// An R language object that is no constant: a name (`f[[2]]` of `y ~
    /// x`) or a call (`f[[3]]` of `y ~ log(x)`), taken from a formula.
    Lang(Lang),
    /// R's factor: codes into a set of levels.
    Factor(Factor),
    /// A vector with R's `names` attribute, or a matrix with `dimnames`
    /// (see [`Named`]). Kernels that know nothing of names never see one:
    /// the evaluator hands them the bare value (`names::strip`).
    Named(Box<Named>),
}

/// R's naming attributes on a vector or matrix. The bare value is never
/// itself `Named`, a list, NULL or a formula (lists keep their own names).
#[derive(Clone, Debug, PartialEq)]
pub struct Named {
    pub value: Value,
    /// A vector's `names(x)`, one per element.
    pub names: Option<Vec<String>>,
    /// A matrix's `dimnames(x)`: row names and column names.
    pub rownames: Option<Vec<String>>,
    pub colnames: Option<Vec<String>>,
    /// R's class `table` (what `table()` makes, kept by the functions R
    /// keeps it through), with the names of its dimnames: one per
    /// dimension, `""` where R has none. `as.data.frame` and `write.csv`
    /// read a table as its counts in long form.
    pub table: Option<Vec<String>>,
    /// R's `match.length` attribute of a `regexpr` result (or of one
    /// element of a `gregexpr` or `regexec` list), one per match start:
    /// what `regmatches` reads.
    pub match_length: Option<Vec<f64>>,
    /// R's `tsp` attribute of a time series (class "ts", or c("mts",
    /// "ts", "matrix") on a matrix): start, end and frequency.
    pub tsp: Option<[f64; 3]>,
    /// The other attributes R sets and flowcast keeps, after those above
    /// in R's order: determinant's `logarithm` on its modulus, reorder's
    /// `scores` on its factor. Functions that drop attributes drop these
    /// with the names.
    pub attrs: Vec<(String, Value)>,
}

impl Named {
    /// `value` with no attributes yet, to be filled with struct update
    /// syntax: `Named { tsp: Some(t), ..Named::plain(v) }`.
    pub fn plain(value: Value) -> Named {
        Named {
            value,
            names: None,
            rownames: None,
            colnames: None,
            table: None,
            match_length: None,
            tsp: None,
            attrs: Vec::new(),
        }
    }
}

/// R's factor: each element a code into `levels` (`None` is NA).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Factor {
    pub codes: Vec<Option<u32>>,
    pub levels: Vec<String>,
    /// R's ordered factor (class c("ordered", "factor")): its levels are
    /// ordered, so `<` and `max` compare them.
    pub ordered: bool,
}

impl Factor {
    /// The label of each element (R's `as.character(f)`), NA as `"NA"`.
    pub fn labels(&self) -> Vec<String> {
        self.codes
            .iter()
            .map(|c| c.map_or_else(|| "NA".to_string(), |c| self.levels[c as usize].clone()))
            .collect()
    }

    /// R's `as.integer(f)`: 1-based codes, NA for NA.
    pub fn integer_codes(&self) -> Vec<f64> {
        self.codes
            .iter()
            .map(|c| c.map_or(NA, |c| f64::from(c) + 1.0))
            .collect()
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct List {
    pub class: Option<String>,
    /// Field names, when the list is named (then `names.len() == items.len()`).
    pub names: Option<Vec<String>>,
    pub items: Vec<Value>,
    /// A data frame's row names; `None` for R's automatic `1..n` (and on
    /// every other list), which R itself stores as just the count.
    pub row_names: Option<RowNames>,
}

/// Row names of a data frame that are not R's automatic ones
/// (see [`super::row_names`]).
#[derive(Clone, Debug, PartialEq)]
pub enum RowNames {
    /// The row numbers of the frame a frame was cut from (`d[order(d$y),
    /// ]` keeps rows "9", "12", "3"): R stores them as integers, and so
    /// does flowcast, a tenth of the text's size.
    Numbers(Vec<i32>),
    Text(Vec<String>),
}

impl RowNames {
    pub fn len(&self) -> usize {
        match self {
            RowNames::Numbers(v) => v.len(),
            RowNames::Text(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th row name as text.
    pub fn label(&self, i: usize) -> String {
        match self {
            RowNames::Numbers(v) => v[i].to_string(),
            RowNames::Text(v) => v[i].clone(),
        }
    }

    /// Every row name as text.
    pub fn labels(&self) -> Vec<String> {
        match self {
            RowNames::Numbers(v) => v.iter().map(i32::to_string).collect(),
            RowNames::Text(v) => v.clone(),
        }
    }
}

impl List {
    /// A named list with a class: R's S3 result objects.
    pub fn record(class: &str, fields: Vec<(&str, Value)>) -> List {
        List {
            class: Some(class.to_string()),
            ..List::named(fields)
        }
    }

    /// A named list without a class (`lm.fit`'s, `cancor`'s results).
    pub fn named(fields: Vec<(&str, Value)>) -> List {
        let (names, items) = fields.into_iter().map(|(n, v)| (n.to_string(), v)).unzip();
        List {
            class: None,
            names: Some(names),
            items,
            row_names: None,
        }
    }

    /// An unnamed list (a loop's value when iterations are not all scalars).
    pub fn sequence(items: Vec<Value>) -> List {
        List {
            class: None,
            names: None,
            items,
            row_names: None,
        }
    }

    /// `x$name`: exact match first, then R's unique partial match.
    pub fn field(&self, name: &str) -> Option<&Value> {
        let names = self.names.as_ref()?;
        let i = match_field(
            self.class.as_deref(),
            names.iter().map(String::as_str),
            name,
        )?;
        self.items.get(i)
    }
}

/// Fields flowcast keeps on an R object that R's own object lacks: the
/// numbers `summary.lm` prints, kept on the fit, and the names R keeps as
/// attributes (a named vector's names, a matrix's dimnames).
const LM_EXTENSIONS: &[&str] = &[
    "coefficient.names",
    "std.error",
    "t.value",
    "p.value",
    "sigma",
    "r.squared",
    "adj.r.squared",
    "fstatistic",
    "f.p.value",
    "response",
    "data",
    "(weights)",
];

/// An mlm's: its coefficients' and responses' names, its model matrix and
/// rows, and each response's own lm fit (summary.mlm's).
const MLM_EXTENSIONS: &[&str] = &[
    "coefficient.names",
    "response.names",
    "x",
    "obs.names",
    "fits",
];

const EXTENSIONS: &[(&str, &[&str])] = &[
    ("lm", LM_EXTENSIONS),
    ("aov", LM_EXTENSIONS),
    ("mlm", MLM_EXTENSIONS),
    ("manova", MLM_EXTENSIONS),
    ("TukeyHSD", &["comparison.names"]),
    // `fit$series` is R's name of the series, not flowcast's copy of it.
    ("ar", &["series.x"]),
    ("glm", &["coefficient.names", "response", "(weights)"]),
    ("summary.lm", &["coefficient.names", "coefficient.colnames"]),
    (
        "summary.glm",
        &["coefficient.names", "coefficient.colnames"],
    ),
];

/// R's `$` on a list: the position of the field named `name` exactly, or
/// else of the one field it is a prefix of (none when several are). Fields
/// flowcast adds to an R object match only exactly, so a prefix is unique
/// or ambiguous just as in R: `fit$coef` is the coefficients, not also
/// `coefficient.names`.
pub fn match_field<'a>(
    class: Option<&str>,
    names: impl Iterator<Item = &'a str> + Clone,
    name: &str,
) -> Option<usize> {
    if let Some(i) = names.clone().position(|n| n == name) {
        return Some(i);
    }
    let extra: &[&str] = EXTENSIONS
        .iter()
        .find(|(c, _)| Some(*c) == class)
        .map_or(&[], |(_, f)| f);
    let mut partial = names
        .enumerate()
        .filter(|(_, n)| n.starts_with(name) && !extra.contains(n));
    match (partial.next(), partial.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// The label prefix of a term that a `.` on the left-hand side made a
/// response (`aggregate(. ~ g, data)`); no R expression's text starts so.
pub const DOT_RESPONSE: &str = ".~";

/// The class of the record `add1` and `step` get as their evaluated scope
/// (the evaluator builds it from the scope formula, see `exec::eval::update`).
pub const SCOPE_CLASS: &str = "flowcast.scope";

/// `y ~ x1 + x2` after evaluation: the response and each term's value.
#[derive(Clone, Debug, PartialEq)]
pub struct Formula {
    pub response: Option<Box<Value>>,
    /// The response's label (its source text), naming it in results
    /// (`aggregate`'s column).
    pub response_label: Option<String>,
    /// Each term's label (its source text, as R prints it) and value.
    pub terms: Vec<(String, Value)>,
    /// False after `- 1` or `+ 0`.
    pub intercept: bool,
    /// R's `predvars` for the variables whose values depend on all of the
    /// data, not each row alone (`bs(x, df = 5)`, `ns(x, 3)`): each such
    /// variable's label and the R text that rebuilds it at the fit's
    /// knots in `newdata`, as R's `makepredictcall` writes it.
    pub predvars: Vec<(String, String)>,
    /// A formula built from text (`as.formula`, `reformulate`,
    /// `formula(fit)`, see `kernels::formula_text`): its R text, as R
    /// deparses it, until a model function reads it among its data; its
    /// `response` and `terms` are empty until then.
    pub text: Option<String>,
    /// The formula as R prints it: as written, with a `.` expanded to the
    /// data's columns as `terms.formula` expands it (`y ~ x * z`, not its
    /// terms `y ~ x + z + x:z`); what `formula(fit)` gives back. `None`
    /// where flowcast built the terms itself (drop1, step).
    pub source: Option<String>,
}

/// A name or a call (see [`Value::Lang`]), held as its text: flowcast's
/// deparse of the expression, which reads back as it (see
/// `kernels::language`).
#[derive(Clone, Debug, PartialEq)]
pub struct Lang {
    pub text: String,
    /// A name (R's `symbol`), not a call.
    pub symbol: bool,
}

/// A logical as R's arithmetic sees it: TRUE 1, FALSE 0, NA `NA_real_`.
pub fn logical_f64(b: Option<bool>) -> f64 {
    match b {
        Some(true) => 1.0,
        Some(false) => 0.0,
        None => NA,
    }
}

impl Value {
    pub fn scalar(x: f64) -> Value {
        Value::Num(vec![x])
    }

    /// `TRUE` or `FALSE`.
    pub fn flag(b: bool) -> Value {
        Value::Bool(vec![Some(b)])
    }

    /// A logical vector without NA.
    pub fn logical(v: &[bool]) -> Value {
        Value::Bool(v.iter().map(|&b| Some(b)).collect())
    }

    /// `(rows, cols)` of a matrix of any type.
    pub fn dims(&self) -> Option<(usize, usize)> {
        match self {
            Value::Mat(m) => Some(m.shape()),
            Value::ComplexMat(m) => Some(m.shape()),
            Value::BoolMat(m) => Some(m.shape()),
            Value::StrMat(m) => Some(m.shape()),
            Value::Named(n) => n.value.dims(),
            _ => None,
        }
    }

    /// The single TRUE/FALSE of a length-one logical or number (`None`
    /// for NA or anything else).
    pub fn as_flag(&self) -> Option<bool> {
        match self {
            Value::Bool(b) if b.len() == 1 => b[0],
            other => other.as_scalar().filter(|x| !x.is_nan()).map(|x| x != 0.0),
        }
    }

    pub fn string(s: &str) -> Value {
        Value::Str(vec![s.to_string()])
    }

    /// R's `class(x)`-like name used in error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Num(v) if v.len() == 1 => "number",
            Value::Num(_) => "numeric vector",
            Value::Mat(_) => "matrix",
            Value::Complex(_) => "complex vector",
            Value::ComplexMat(_) => "complex matrix",
            Value::Str(_) => "character",
            Value::StrMat(_) => "character matrix",
            Value::Bool(_) => "logical",
            Value::BoolMat(_) => "logical matrix",
            Value::List(_) => "list",
            Value::Formula(_) => "formula",
            Value::Lang(l) if l.symbol => "symbol",
            Value::Lang(_) => "language",
            Value::Factor(_) => "factor",
            Value::Named(n) => n.value.type_name(),
        }
    }

    /// R's `length(x)`.
    pub fn len(&self) -> usize {
        match self {
            Value::Null => 0,
            Value::Num(v) => v.len(),
            Value::Mat(m) => m.len(),
            Value::Complex(v) => v.len(),
            Value::ComplexMat(m) => m.len(),
            Value::Str(v) => v.len(),
            Value::StrMat(m) => m.len(),
            Value::Bool(v) => v.len(),
            Value::BoolMat(m) => m.len(),
            Value::List(l) => l.items.len(),
            // `~`, the left side if any, the right side.
            Value::Formula(f) => {
                if super::language::one_sided(f) {
                    2
                } else {
                    3
                }
            }
            Value::Lang(l) => super::language::call_length(l),
            Value::Factor(f) => f.codes.len(),
            Value::Named(n) => n.value.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The numbers of a numeric vector or matrix (column-major), logicals as
    /// 0/1; `None` for anything else.
    pub fn as_f64_slice(&self) -> Option<std::borrow::Cow<'_, [f64]>> {
        use std::borrow::Cow;
        match self {
            Value::Num(v) => Some(Cow::Borrowed(v)),
            Value::Mat(m) => Some(Cow::Borrowed(m.as_slice())),
            Value::Bool(v) => Some(Cow::Owned(v.iter().map(|&b| logical_f64(b)).collect())),
            Value::BoolMat(m) => Some(Cow::Owned(
                m.as_slice().iter().map(|&b| logical_f64(b)).collect(),
            )),
            Value::Named(n) => n.value.as_f64_slice(),
            _ => None,
        }
    }

    /// The logicals of a logical or numeric vector or matrix, as R's
    /// `as.logical` reads numbers (0 FALSE, NA and NaN NA, else TRUE);
    /// `None` for anything else.
    pub fn as_logicals(&self) -> Option<std::borrow::Cow<'_, [Option<bool>]>> {
        use std::borrow::Cow;
        let num = |x: &f64| (!x.is_nan()).then_some(*x != 0.0);
        match self {
            Value::Bool(v) => Some(Cow::Borrowed(v)),
            Value::BoolMat(m) => Some(Cow::Borrowed(m.as_slice())),
            Value::Num(v) => Some(Cow::Owned(v.iter().map(num).collect())),
            Value::Mat(m) => Some(Cow::Owned(m.as_slice().iter().map(num).collect())),
            Value::Null => Some(Cow::Borrowed(&[])),
            Value::Named(n) => n.value.as_logicals(),
            _ => None,
        }
    }

    /// Logicals shaped as a matrix when `dims` is given.
    pub fn logicals_shaped(data: Vec<Option<bool>>, dims: Option<(usize, usize)>) -> Value {
        match dims {
            Some((r, c)) if r * c == data.len() => Value::BoolMat(DMatrix::from_vec(r, c, data)),
            _ => Value::Bool(data),
        }
    }

    /// Strings shaped as a matrix when `dims` is given.
    pub fn strs_shaped(data: Vec<String>, dims: Option<(usize, usize)>) -> Value {
        match dims {
            Some((r, c)) if r * c == data.len() => Value::StrMat(DMatrix::from_vec(r, c, data)),
            _ => Value::Str(data),
        }
    }

    /// The strings of a character vector or matrix (column-major);
    /// `None` for anything else.
    pub fn as_strs(&self) -> Option<&[String]> {
        match self {
            Value::Str(v) => Some(v),
            Value::StrMat(m) => Some(m.as_slice()),
            Value::Named(n) => n.value.as_strs(),
            _ => None,
        }
    }

    /// Numbers shaped as a matrix when `dims` is given.
    pub fn nums_shaped(data: Vec<f64>, dims: Option<(usize, usize)>) -> Value {
        match dims {
            Some((r, c)) if r * c == data.len() => Value::Mat(DMatrix::from_vec(r, c, data)),
            _ => Value::Num(data),
        }
    }

    /// A dist object's distances: in R a dist is its numeric lower
    /// triangle (`sum(d)`, `max(d)`, `length(d)`).
    pub fn dist_values(&self) -> Option<&[f64]> {
        match self {
            Value::List(l) if l.class.as_deref() == Some("dist") => match l.field("values")? {
                Value::Num(v) => Some(v),
                _ => None,
            },
            _ => None,
        }
    }

    /// The single number of a length-one numeric or logical value.
    pub fn as_scalar(&self) -> Option<f64> {
        match self {
            Value::Num(v) if v.len() == 1 => Some(v[0]),
            Value::Mat(m) if m.len() == 1 => Some(m[0]),
            Value::Bool(v) if v.len() == 1 => Some(logical_f64(v[0])),
            Value::BoolMat(m) if m.len() == 1 => Some(logical_f64(m[0])),
            Value::Named(n) => n.value.as_scalar(),
            _ => None,
        }
    }

    /// Approximate heap size, for the communication model and reports.
    pub fn bytes(&self) -> usize {
        match self {
            Value::Null | Value::Bool(_) | Value::BoolMat(_) => self.len(),
            Value::Num(_) | Value::Mat(_) => 8 * self.len(),
            Value::Complex(_) | Value::ComplexMat(_) => 16 * self.len(),
            Value::Str(v) => v.iter().map(String::len).sum(),
            Value::StrMat(m) => m.iter().map(String::len).sum(),
            Value::List(l) => {
                l.items.iter().map(Value::bytes).sum::<usize>()
                    + match &l.row_names {
                        None => 0,
                        Some(RowNames::Numbers(v)) => 4 * v.len(),
                        Some(RowNames::Text(v)) => v.iter().map(String::len).sum(),
                    }
            }
            Value::Factor(f) => 4 * f.codes.len() + f.levels.iter().map(String::len).sum::<usize>(),
            Value::Formula(f) => {
                f.terms.iter().map(|(_, v)| v.bytes()).sum::<usize>()
                    + f.response.as_ref().map_or(0, |r| r.bytes())
            }
            Value::Lang(l) => l.text.len(),
            Value::Named(n) => {
                let labels = |l: &Option<Vec<String>>| {
                    l.as_ref()
                        .map_or(0, |l| l.iter().map(String::len).sum::<usize>())
                };
                n.value.bytes() + labels(&n.names) + labels(&n.rownames) + labels(&n.colnames)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn na_is_a_nan_but_not_every_nan_is_na() {
        assert!(NA.is_nan());
        assert!(is_na(NA));
        assert!(!is_na(f64::NAN));
        assert!(!is_na(1.0));
    }

    #[test]
    fn field_partial_match_must_be_unique() {
        let l = List::record(
            "htest",
            vec![
                ("statistic", Value::scalar(1.0)),
                ("p.value", Value::scalar(0.5)),
            ],
        );
        assert_eq!(l.field("p.value"), Some(&Value::scalar(0.5)));
        assert_eq!(l.field("p"), Some(&Value::scalar(0.5)));
        assert_eq!(l.field("x"), None);
    }
}
