//! R's names: a vector's `names` attribute and a matrix's `dimnames`,
//! carried by [`Value::Named`].
//!
//! Most kernels know nothing of names. The evaluator hands them bare
//! values ([`strip`]) and then gives the result the names R would
//! ([`carry`]): an element-wise function keeps its argument's names, `c`
//! combines them, `sort` permutes them, `sapply` takes them from `X`. The
//! functions that are about names (`names`, `setNames`, `unname`,
//! `colnames`, `rownames`, `dimnames`) and the subscripts (`x["a"]`,
//! `m["dose", ]`) read them here.

use std::borrow::Cow;

use super::args::Args;
use super::value::{List, Named, Value};
use super::{opt, req, ArgError, Ctx, Kernel, KernelError, ShapeCtx, Type};

pub const KERNELS: &[Kernel] = &[
    Kernel {
        name: "unname",
        params: &[req("obj"), opt("force")],
        random: false,
        shape: unname_shape,
        eval: unname_eval,
    },
    Kernel {
        name: "dimnames",
        params: &[req("x")],
        random: false,
        shape: |_, _| Ok(Type::Any),
        eval: dimnames_eval,
    },
];

fn unname_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(args.ty("obj").cloned().unwrap_or(Type::Null))
}

/// `unname(obj)`: the value without names (a list's too; a data frame
/// keeps its column names, as R's does unless `force`).
fn unname_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let obj = args.get("obj").unwrap_or(&Value::Null);
    Ok(match bare(obj) {
        Value::List(l) if l.class.as_deref() == Some("data.frame") => Value::List(l.clone()),
        Value::List(l) => Value::List(List {
            names: None,
            ..l.clone()
        }),
        other => other.clone(),
    })
}

/// `dimnames(x)`: a list of the row and column names (NULL for a side
/// without; named as a table's are), a data frame's row names and names,
/// or NULL.
fn dimnames_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let side = |l: Option<&[String]>| l.map_or(Value::Null, |l| Value::Str(l.to_vec()));
    Ok(match x {
        Value::List(l) if l.class.as_deref() == Some("data.frame") => {
            Value::List(List::sequence(vec![
                Value::Str(super::row_names::labels(l)),
                side(l.names.as_deref()),
            ]))
        }
        Value::Named(n) if n.value.dims().is_some() => {
            let mut l = List::sequence(vec![
                side(n.rownames.as_deref()),
                side(n.colnames.as_deref()),
            ]);
            l.names = n.table.clone();
            Value::List(l)
        }
        // An array's dimnames are an attribute of their own.
        Value::Named(n) if n.attrs.iter().any(|(k, _)| k == "dimnames") => n
            .attrs
            .iter()
            .find(|(k, _)| k == "dimnames")
            .map_or(Value::Null, |(_, v)| v.clone()),
        // A one-way table's dimnames: its names, named as the table's.
        Value::Named(n) if n.table.is_some() => {
            let mut l = List::sequence(vec![side(n.names.as_deref())]);
            l.names = n.table.clone();
            Value::List(l)
        }
        _ => Value::Null,
    })
}

/// `value` with `names`, when they fit: one per element of an atomic
/// vector. Anything else is returned as it is (R would refuse a length
/// mismatch at `names<-`; every caller here builds matching names).
pub fn named(value: Value, names: Vec<String>) -> Value {
    let value = bare_owned(value);
    let atomic = matches!(
        value,
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Complex(_) | Value::Factor(_)
    );
    if !atomic || names.len() != value.len() {
        return value;
    }
    Value::Named(Box::new(Named {
        names: Some(names),
        ..Named::plain(value)
    }))
}

/// `value` (a vector, matrix or factor) with the attribute `name` set to
/// `attr` after any it has, as R's `attr<-` appends; anything else is
/// returned as it is.
pub fn with_attr(value: Value, name: &str, attr: Value) -> Value {
    let mut n = match value {
        Value::Named(n) => n,
        v @ (Value::Num(_)
        | Value::Str(_)
        | Value::Bool(_)
        | Value::Complex(_)
        | Value::Factor(_)
        | Value::Mat(_)
        | Value::BoolMat(_)
        | Value::StrMat(_)
        | Value::ComplexMat(_)) => Box::new(Named::plain(v)),
        other => return other,
    };
    match n.attrs.iter_mut().find(|(k, _)| k == name) {
        Some((_, v)) => *v = attr,
        None => n.attrs.push((name.to_string(), attr)),
    }
    Value::Named(n)
}

/// A matrix with dimnames, when they fit its dimensions.
pub fn dimnamed(value: Value, rows: Option<Vec<String>>, cols: Option<Vec<String>>) -> Value {
    let value = bare_owned(value);
    let Some((r, c)) = value.dims() else {
        return value;
    };
    let rows = rows.filter(|n| n.len() == r);
    let cols = cols.filter(|n| n.len() == c);
    if rows.is_none() && cols.is_none() {
        return value;
    }
    Value::Named(Box::new(Named {
        rownames: rows,
        colnames: cols,
        ..Named::plain(value)
    }))
}

/// A matrix's column names set, its row names kept.
fn with_colnames(value: Value, cols: Vec<String>) -> Value {
    let rows = dimnames(&value).0.map(<[String]>::to_vec);
    dimnamed(value, rows, Some(cols))
}

/// A matrix's row names set, its column names kept.
fn with_rownames(value: Value, rows: Vec<String>) -> Value {
    let cols = dimnames(&value).1.map(<[String]>::to_vec);
    dimnamed(value, Some(rows), cols)
}

/// The names of a table's dimnames (R's class `table`), when `v` is one.
pub fn table_dnn(v: &Value) -> Option<&[String]> {
    match v {
        Value::Named(n) => n.table.as_deref(),
        _ => None,
    }
}

/// `v`, named or dimnamed already, as a table whose dimnames are named
/// `dnn` (one per dimension); anything else is returned as it is.
pub fn tabled(v: Value, dnn: Vec<String>) -> Value {
    match v {
        Value::Named(mut n) => {
            let extents = if n.value.dims().is_some() { 2 } else { 1 };
            if dnn.len() == extents && (n.names.is_some() || extents == 2) {
                n.table = Some(dnn);
            }
            Value::Named(n)
        }
        other => other,
    }
}

/// The value without its names (one level: a list's items keep theirs).
pub fn bare(v: &Value) -> &Value {
    match v {
        Value::Named(n) => &n.value,
        other => other,
    }
}

fn bare_owned(v: Value) -> Value {
    match v {
        Value::Named(n) => n.value,
        other => other,
    }
}

/// `names(x)` of a vector (a list's names are its own field).
pub fn names(v: &Value) -> Option<&[String]> {
    match v {
        Value::Named(n) => n.names.as_deref(),
        _ => None,
    }
}

/// `(rownames, colnames)` of a matrix.
pub fn dimnames(v: &Value) -> (Option<&[String]>, Option<&[String]>) {
    match v {
        Value::Named(n) => (n.rownames.as_deref(), n.colnames.as_deref()),
        _ => (None, None),
    }
}

/// [`dimnames`] of a matrix, or what `as.matrix` names a data frame's
/// rows and columns by: its row names unless automatic, its names.
fn table_dimnames(v: &Value) -> (Option<Vec<String>>, Option<Vec<String>>) {
    match v {
        Value::List(l) if l.class.as_deref() == Some("data.frame") => {
            (super::row_names::matrix_rownames(l), l.names.clone())
        }
        other => {
            let (r, c) = dimnames(other);
            (r.map(<[String]>::to_vec), c.map(<[String]>::to_vec))
        }
    }
}

/// Whether `v` or anything inside it carries names.
pub fn has_named(v: &Value) -> bool {
    match v {
        Value::Named(_) => true,
        Value::List(l) => l.items.iter().any(has_named),
        Value::Formula(f) => {
            f.terms.iter().any(|(_, t)| has_named(t))
                || f.response.as_deref().is_some_and(has_named)
        }
        _ => false,
    }
}

/// `v` with every name attribute removed, at any depth: what a kernel that
/// knows nothing of names is given. Borrowed when there is nothing to remove.
pub fn strip(v: &Value) -> Cow<'_, Value> {
    if !has_named(v) {
        return Cow::Borrowed(v);
    }
    Cow::Owned(strip_owned(v.clone()))
}

/// [`strip`] of an owned value.
pub fn strip_value(v: Value) -> Value {
    if has_named(&v) {
        strip_owned(v)
    } else {
        v
    }
}

fn strip_owned(v: Value) -> Value {
    match v {
        Value::Named(n) => strip_owned(n.value),
        Value::List(l) => Value::List(List {
            items: l.items.into_iter().map(strip_owned).collect(),
            ..l
        }),
        Value::Formula(mut f) => {
            f.terms = f
                .terms
                .into_iter()
                .map(|(label, t)| (label, strip_owned(t)))
                .collect();
            f.response = f.response.map(|r| Box::new(strip_owned(*r)));
            Value::Formula(f)
        }
        other => other,
    }
}

/// Functions that read names themselves: they are given the named values.
pub fn reads_names(func: &str) -> bool {
    matches!(
        func,
        "names"
            // `[` and `[[` as functions index by name as `x[i]` does.
            | "["
            | "[["
            | "adist"
            | "hasName"
            | "setNames"
            | "unname"
            | "colnames"
            | "rownames"
            | "dimnames"
            // A table's dimnames are ftable's row.vars and col.vars.
            | "ftable"
            | "list"
            | "nls"
            // A selfStart model's value carries its "gradient" attribute.
            | "SSasymp"
            | "SSasympOff"
            | "SSasympOrig"
            | "SSbiexp"
            | "SSfol"
            | "SSfpl"
            | "SSlogis"
            | "SSmicmen"
            | "SSgompertz"
            | "SSweibull"
            | "getInitial"
            | "data.frame"
            | "as.data.frame"
            | "cbind"
            | "rbind"
            // The chosen alternative is returned whole.
            | "switch"
            // X's and Y's names and dimnames are the result's dimnames.
            | "outer"
            // Match data carries its match.length as a Named value.
            | "regmatches"
            | "write.csv"
            | "row.names"
            | "row.names<-"
            | "rownames<-"
            | "[<-"
            | "replace"
            | "[[<-"
            | "$<-"
            | "names<-"
            | "colnames<-"
            | "levels<-"
            | "dim<-"
            // An array's dimensions are its `dim` attribute.
            | "dim"
            // Its table form is an array of counts (the factor form strips
            // names itself).
            | "mantelhaen.test"
            | "is.array"
            // Their na.action attribute names the dropped elements.
            | "na.omit"
            | "na.exclude"
            | "na.action"
            | "naresid"
            | "napredict"
            // R prints and returns its argument, attributes and all.
            | "print"
            // with.default returns expr's value, names and dimnames kept.
            | "with"
            | "dimnames<-"
            | "is.na<-"
            // A vector's names are its result's, unless use.names = FALSE.
            | "lengths"
            // par's names reach fn and the result.
            | "optim"
            | "optimHess"
            | "constrOptim"
            | "nlminb"
            // xreg's column names name its coefficients.
            | "arima"
            // x's column names are the result's.
            | "rowsum"
            // Names and dimnames are attributes these read and compare.
            | "attr"
            | "attributes"
            // Names are written as R writes them (`c(a = 1)`).
            | "deparse"
            | "deparse1"
            | "identical"
            | "all.equal"
            | "class"
            | "oldClass"
            | "typeof"
            | "mode"
            | "storage.mode"
            | "inherits"
            // A table's counts are integers; attributes but names are no
            // plain vector's.
            | "is.integer"
            | "is.double"
            | "is.vector"
            // prob's names name the rows.
            | "rmultinom"
            // The dimnames of the margins kept are the result's.
            | "marginSums"
            | "margin.table"
            // Dimnames are compared with the transpose's.
            | "isSymmetric"
            // Column names name the coefficients.
            | "qr.solve"
            | "lm.fit"
            | "lsfit"
            | "lm.wfit"
            // Names (or a matrix's row names) of x name the groups.
            | "pairwise.prop.test"
            // The fit's column names name the covariances.
            | "ls.diag"
            // x's names and values' are joined as c joins them.
            | "append"
            // A table's dimnames name its variables and parameters.
            | "loglin"
            // A vector's names are the list's.
            | "as.list"
            | "stack"
            // Column names name the loadings and coefficients.
            | "princomp"
            | "cancor"
            // Dimnames name the loadings, uniquenesses and scores.
            | "factanal"
            | "varimax"
            | "promax"
            // A time series' tsp attribute is read from it.
            | "ts"
            | "tsp"
            | "is.ts"
            | "frequency"
            | "deltat"
            | "time"
            | "cycle"
            | "start"
            | "end"
            | "decompose"
            | "diffinv"
            | "kernapply"
            | "diff"
            | "filter"
            | "acf"
            | "pacf"
            | "ccf"
            | "lag"
            | "ts.union"
            | "ts.intersect"
            | "stl"
            | "HoltWinters"
            // x's tsp dates the fit's residuals and states.
            | "StructTS"
            // The row and column effects are named by x's dimnames.
            | "medpolish"
            | "window"
            | "spec.pgram"
            | "spectrum"
            | "spec.taper"
            | "hasTsp"
            // A terms object is a formula with attributes; labels reads names.
            | "terms"
            | "delete.response"
            | "labels"
            // A Date's class says what its numbers are.
            | "unclass"
            | "as.Date"
            | "weekdays"
            | "months"
            | "julian"
            | "difftime"
            | "units"
            | "units<-"
            // So does a POSIXct's, and noquote adds to the class it finds.
            | "as.POSIXct"
            | "strftime"
            | "strptime"
            | "noquote"
            | "encodeString"
            // Dimnames name the pieces and the matrix; names are set or
            // read as attributes; numbers keep theirs.
            | "drop"
            | "asplit"
            | "data.matrix"
            | "structure"
            | "getElement"
            | "xtfrm"
    )
}

/// Functions whose result keeps the names (or dimnames) of their first
/// argument when it has that argument's length (or dimensions), as R's
/// arithmetic and math functions keep attributes.
fn keeps_first(func: &str) -> bool {
    matches!(
        func,
        "abs"
            | "sqrt"
            | "exp"
            | "log"
            | "log2"
            | "log10"
            | "log1p"
            | "expm1"
            | "floor"
            | "ceiling"
            | "trunc"
            | "round"
            | "signif"
            | "sign"
            | "cumsum"
            | "cumprod"
            | "cummax"
            | "cummin"
            | "is.na"
            | "is.finite"
            | "is.infinite"
            | "is.nan"
            | "cov2cor"
            | "prop.table"
            | "proportions"
            | "rank"
            | "p.adjust"
            | "pmin"
            | "pmax"
            | "logb"
            | "ifelse"
            | "nchar"
            | "toupper"
            | "tolower"
            | "casefold"
            | "sin"
            | "cos"
            | "tan"
            | "gamma"
            | "asin"
            | "acos"
            | "sinh"
            | "cosh"
            | "tanh"
            | "asinh"
            | "acosh"
            | "atanh"
            | "cospi"
            | "sinpi"
            | "tanpi"
            | "digamma"
            | "trigamma"
            | "lgamma"
            | "lfactorial"
            | "lchoose"
            | "psigamma"
            | "besselI"
            | "besselK"
            | "besselJ"
            | "besselY"
            | "prettyNum"
            | "!"
    )
}

/// Binary operators: the names of the first operand of the result's
/// length, else of the second (R's rule for arithmetic).
pub(super) fn is_operator(func: &str) -> bool {
    matches!(
        func,
        "+" | "-"
            | "*"
            | "/"
            | "^"
            | "%%"
            | "%/%"
            | "=="
            | "!="
            | "<"
            | ">"
            | "<="
            | ">="
            | "&"
            | "|"
    )
}

/// Whether [`carry`] may name `func`'s result: only then does the
/// evaluator keep the arguments as written.
pub fn may_carry(func: &str, given: &[(Option<String>, Cow<Value>)]) -> bool {
    // The common case first: nothing named, and a function that names
    // nothing of its own (every arithmetic operator in a loop body).
    if given.iter().any(|(_, v)| matches!(**v, Value::Named(_))) {
        return true;
    }
    match func {
        "sapply" | "vapply" | "lapply" | "mapply" | "Map" | "unlist" | "colMeans" | "colSums"
        | "rowMeans" | "rowSums" | "cor" | "cov" | "var" | "apply" | "is.na" | "as.matrix"
        | "t" | "scale" | "cutree" | "prcomp" | "dist" | "as.dist" => true,
        "c" => given.iter().any(|(tag, _)| tag.is_some()),
        _ => false,
    }
}

/// The names R gives `func`'s result, from the arguments as written
/// (`given`, with their names) and the kernel's bare result; and R's
/// class `table`, where R keeps it.
pub fn carry(
    func: &str,
    given: &[(Option<String>, &Value)],
    matched: Option<&Args<&Value>>,
    result: Value,
) -> Value {
    if func == "scale" {
        return scale_names(given, matched, result);
    }
    if func == "prcomp" {
        return prcomp_names(given, matched, result);
    }
    if matches!(func, "dist" | "as.dist" | "cutree") {
        return cluster_labels(func, given, matched, result);
    }
    let named = carry_names(func, given, matched, result);
    let named = match kept_table(func, given, matched, &named) {
        Some(dnn) => tabled(named, dnn),
        None => named,
    };
    kept_attrs(func, given, kept_tsp(func, given, named))
}

/// prcomp.default's names from x's dimnames: the rotation's rows and the
/// center and scale by x's columns, the scores' rows by x's rows (the
/// kernel names the components PC1, PC2, ...).
fn prcomp_names(
    given: &[(Option<String>, &Value)],
    matched: Option<&Args<&Value>>,
    result: Value,
) -> Value {
    let first = given.first().map(|(_, v)| *v);
    let Some(x) = matched.and_then(|m| m.get_if_formal("x")).or(first) else {
        return result;
    };
    let (rows, cols) = table_dimnames(x);
    let Value::List(mut l) = result else {
        return result;
    };
    if rows.is_none() && cols.is_none() {
        return Value::List(l);
    }
    let names = l.names.clone().unwrap_or_default();
    for (k, name) in names.iter().enumerate() {
        let item = std::mem::replace(&mut l.items[k], Value::Null);
        let pcs = dimnames(&item).1.map(<[String]>::to_vec);
        l.items[k] = match name.as_str() {
            "rotation" => dimnamed(item, cols.clone(), pcs),
            "x" => dimnamed(item, rows.clone(), pcs),
            "center" | "scale" if matches!(item, Value::Num(_)) => match &cols {
                Some(c) => named(item, c.clone()),
                None => item,
            },
            _ => item,
        };
    }
    Value::List(l)
}

/// The labels R's clustering functions carry: `dist` and `as.dist` label
/// a dist by x's row names (as.dist: else its column names); cutree names
/// its groups by the tree's labels (R's `setNames(ans, tree$labels)`),
/// and its matrix of several cuts has columns named by `k` or `h`.
fn cluster_labels(
    func: &str,
    given: &[(Option<String>, &Value)],
    matched: Option<&Args<&Value>>,
    result: Value,
) -> Value {
    let first = given.first().map(|(_, v)| *v);
    match (func, result) {
        ("cutree", result) => {
            let tree = matched.and_then(|m| m.get_if_formal("tree")).or(first);
            let labels = match tree.map(bare) {
                Some(Value::List(l)) => match l.field("labels") {
                    Some(Value::Str(s)) => Some(s.clone()),
                    _ => None,
                },
                _ => None,
            };
            if result.dims().is_none() {
                return match labels {
                    Some(ls) => named(result, ls),
                    None => result,
                };
            }
            let cuts = matched.and_then(|m| {
                ["h", "k"]
                    .iter()
                    .filter_map(|n| m.get_if_formal(n))
                    .find(|v| !matches!(v, Value::Null))
                    .and_then(|v| bare(v).as_f64_slice().map(|c| c.into_owned()))
            });
            let cols = cuts.map(|c| {
                c.iter()
                    .map(|&x| super::data::combine::r_num_to_string(x))
                    .collect()
            });
            dimnamed(result, labels, cols)
        }
        (_, Value::List(mut l)) if l.class.as_deref() == Some("dist") => {
            let x = matched
                .and_then(|m| m.get_if_formal(if func == "dist" { "x" } else { "m" }))
                .or(first);
            let labels = x.and_then(|x| {
                let (rows, cols) = table_dimnames(x);
                match func {
                    "as.dist" => rows.or(cols),
                    // dist's as.matrix makes a named vector one column
                    // whose row names are the names.
                    _ => rows.or_else(|| names(x).map(<[String]>::to_vec)),
                }
            });
            let Some(labels) = labels else {
                return Value::List(l);
            };
            if let Some(k) = l
                .names
                .as_ref()
                .and_then(|n| n.iter().position(|n| n == "labels"))
            {
                l.items[k] = Value::Str(labels);
            }
            Value::List(l)
        }
        (_, result) => result,
    }
}

/// scale.default keeps x's dimnames (a data frame's are as.matrix's) and
/// names its `scaled:center` and `scaled:scale` by x's column names.
fn scale_names(
    given: &[(Option<String>, &Value)],
    matched: Option<&Args<&Value>>,
    result: Value,
) -> Value {
    let x = matched
        .and_then(|m| m.get_if_formal("x"))
        .or_else(|| given.first().map(|(_, v)| *v));
    let (rows, cols) = x.map_or((None, None), table_dimnames);
    let attrs = match &result {
        Value::Named(n) => n.attrs.clone(),
        _ => Vec::new(),
    };
    let mut out = dimnamed(result, rows, cols.clone());
    for (k, v) in attrs {
        let v = match &cols {
            Some(c) if v.len() == c.len() => named(v, c.clone()),
            _ => v,
        };
        out = with_attr(out, &k, v);
    }
    out
}

/// R's arithmetic operators and Math group functions keep every attribute
/// of an operand of the result's shape (`exp(determinant(m)$modulus)`
/// keeps `logarithm`); a factor's (reorder's `scores`) never reach a
/// number, as Ops.factor drops them.
fn kept_attrs(func: &str, given: &[(Option<String>, &Value)], result: Value) -> Value {
    let math = matches!(
        func,
        "+" | "-"
            | "*"
            | "/"
            | "^"
            | "%%"
            | "%/%"
            | "abs"
            | "sqrt"
            | "exp"
            | "log"
            | "log2"
            | "log10"
            | "log1p"
            | "expm1"
            | "floor"
            | "ceiling"
            | "trunc"
            | "round"
            | "signif"
            | "sign"
            | "sin"
            | "cos"
            | "tan"
            | "asin"
            | "acos"
            | "sinh"
            | "cosh"
            | "tanh"
            | "asinh"
            | "acosh"
            | "atanh"
            | "cospi"
            | "sinpi"
            | "tanpi"
            | "gamma"
            | "lgamma"
            | "digamma"
            | "trigamma"
    );
    // R's comparison and logical operators (and `!`, `is.na`) keep an
    // array's dimensions only.
    let dims_only = matches!(
        func,
        "==" | "!=" | "<" | ">" | "<=" | ">=" | "&" | "|" | "!" | "is.na" | "ifelse"
    );
    if !(math || dims_only) || matches!(result, Value::List(_) | Value::Null | Value::Factor(_)) {
        return result;
    }
    let candidates = if is_operator(func) {
        given
    } else {
        &given[..given.len().min(1)]
    };
    let shape = |v: &Value| {
        let b = bare(v);
        (b.dims(), b.len())
    };
    let want = shape(&result);
    let attrs = candidates.iter().find_map(|(_, v)| match v {
        Value::Named(n)
            if !n.attrs.is_empty() && !matches!(n.value, Value::Factor(_)) && shape(v) == want =>
        {
            Some(n.attrs.clone())
        }
        _ => None,
    });
    match attrs {
        Some(attrs) => attrs
            .into_iter()
            .filter(|(name, _)| !dims_only || name == "dim")
            .fold(result, |r, (name, v)| with_attr(r, &name, v)),
        None => result,
    }
}

/// R's arithmetic and Math functions keep a series' `tsp` (every
/// attribute) on a result of its shape: `x + 1`, `log(x)`; nothing else
/// here does (`x[1:3]` drops it, as R's `[` does).
fn kept_tsp(func: &str, given: &[(Option<String>, &Value)], result: Value) -> Value {
    if !keeps_table(func) || matches!(result, Value::List(_) | Value::Null) {
        return result;
    }
    if super::ts::tsp_of(&result).is_some() {
        return result;
    }
    let candidates = if is_operator(func) {
        given
    } else {
        &given[..given.len().min(1)]
    };
    let shape = |v: &Value| {
        let b = bare(v);
        (b.dims(), b.len())
    };
    let want = shape(&result);
    match candidates
        .iter()
        .find(|(_, v)| super::ts::tsp_of(v).is_some() && shape(v) == want)
        .and_then(|(_, v)| super::ts::tsp_of(v))
    {
        Some(t) => super::ts::with_tsp(result, t),
        None => result,
    }
}

/// Functions that keep a table a table when they keep its shape: R's
/// arithmetic and math functions, which keep every attribute.
fn keeps_table(func: &str) -> bool {
    matches!(func, "+" | "-" | "*" | "/" | "^" | "%%" | "%/%")
        || (keeps_first(func)
            && !matches!(
                func,
                "cumsum"
                    | "cumprod"
                    | "cummax"
                    | "cummin"
                    | "is.na"
                    | "rank"
                    | "nchar"
                    | "prettyNum"
                    | "toupper"
                    | "tolower"
                    | "casefold"
                    | "!"
                    | "ifelse"
                    | "pmax"
            ))
}

/// The dimnames' names of the table `func`'s result stays, if it stays
/// one: of an operand of its shape (`tb / sum(tb)`), of `x` for `sort`,
/// `rev`, `head` and `tail`, reversed for `t`.
fn kept_table(
    func: &str,
    given: &[(Option<String>, &Value)],
    matched: Option<&Args<&Value>>,
    result: &Value,
) -> Option<Vec<String>> {
    let same = |v: &Value| match (v.dims(), result.dims()) {
        (Some(a), Some(b)) => a == b,
        (None, None) => v.len() == result.len(),
        _ => false,
    };
    let first = given.first().map(|(_, v)| *v);
    if keeps_table(func) {
        let candidates = if is_operator(func) {
            given
        } else {
            &given[..given.len().min(1)]
        };
        return candidates
            .iter()
            .find(|(_, v)| table_dnn(v).is_some() && same(v))
            .and_then(|(_, v)| table_dnn(v))
            .map(<[String]>::to_vec);
    }
    let x = matched.and_then(|m| m.get_if_formal("x")).or(first)?;
    let dnn = table_dnn(x)?;
    match func {
        "sort" | "sort.int" | "rev" | "head" | "tail" if result.len() > 1 => Some(dnn.to_vec()),
        "t" => Some(dnn.iter().rev().cloned().collect()),
        "addmargins" => Some(dnn.to_vec()),
        _ => None,
    }
}

fn carry_names(
    func: &str,
    given: &[(Option<String>, &Value)],
    matched: Option<&Args<&Value>>,
    result: Value,
) -> Value {
    if matches!(result, Value::Named(_) | Value::List(_) | Value::Null)
        && !matches!(
            func,
            "lapply" | "sapply" | "vapply" | "strsplit" | "mapply" | "Map" | "apply"
        )
    {
        return result;
    }
    let first = given.first().map(|(_, v)| *v);
    // `is.na(d)` of a data frame is a matrix named by its columns.
    if let (Some(Value::List(l)), Some(_), "is.na") = (first, result.dims(), func) {
        if l.class.as_deref() == Some("data.frame") {
            return dimnamed(
                result,
                super::row_names::matrix_rownames(l),
                l.names.clone(),
            );
        }
    }
    if is_operator(func) || keeps_first(func) {
        let candidates: &[(Option<String>, &Value)] = if is_operator(func) {
            given
        } else {
            &given[..given.len().min(1)]
        };
        // An array's dimnames win over a vector's names, whichever comes
        // first (a table is one).
        let tables = candidates.iter().filter(|(_, v)| table_dnn(v).is_some());
        let others = candidates.iter().filter(|(_, v)| table_dnn(v).is_none());
        return same_shape(tables.chain(others).map(|(_, v)| *v), result);
    }
    // A text function that keeps a character matrix's dim keeps its
    // dimnames (`sub`, `substr`, `format`: R keeps every attribute).
    if let Some(formal) = super::text_matrix::kept_formal(func) {
        if let (Some(_), Some(src)) = (result.dims(), matched.and_then(|m| m.get_if_formal(formal)))
        {
            return same_shape(std::iter::once(src), result);
        }
    }
    let x = matched.and_then(|m| m.get_if_formal("x")).or(first);
    match func {
        "c" => match combined_names(given) {
            Some(ns) => named(result, ns),
            None => result,
        },
        "rev" => match x.and_then(names) {
            Some(ns) => named(result, ns.iter().rev().cloned().collect()),
            None => result,
        },
        "head" | "tail" => match x.and_then(names) {
            Some(ns) if result.len() <= ns.len() => {
                let k = result.len();
                let kept = if func == "head" {
                    &ns[..k]
                } else {
                    &ns[ns.len() - k..]
                };
                named(result, kept.to_vec())
            }
            _ => result,
        },
        "sort" | "sort.int" => match x {
            Some(x) if names(x).is_some() => sorted_names(x, matched, result),
            _ => result,
        },
        "which" | "which.max" | "which.min" => match x.and_then(names) {
            Some(ns) => {
                let picked = result.as_f64_slice().map(|p| {
                    p.iter()
                        .map(|&k| {
                            (k as usize)
                                .checked_sub(1)
                                .and_then(|i| ns.get(i))
                                .cloned()
                                .unwrap_or_default()
                        })
                        .collect::<Vec<_>>()
                });
                match picked {
                    Some(p) => named(result, p),
                    None => result,
                }
            }
            None => result,
        },
        "unlist" => match x {
            Some(Value::List(l)) => match unlist_names(l) {
                Some(ns) => named(result, ns),
                None => result,
            },
            _ => result,
        },
        // strsplit's list is named by x's names (do_strsplit).
        "strsplit" => match (x.and_then(names), result) {
            (Some(ns), Value::List(mut l)) if l.items.len() == ns.len() => {
                l.names = Some(ns.to_vec());
                Value::List(l)
            }
            (_, r) => r,
        },
        // mapply's USE.NAMES: the first ... argument's names, or the
        // argument itself when it is character.
        "mapply" | "Map" => {
            let use_names = matched
                .and_then(|m| m.get_if_formal("USE.NAMES"))
                .and_then(Value::as_flag)
                .unwrap_or(true);
            let first = matched.and_then(|m| m.dots().next().map(|(_, v)| v));
            let labels = match first {
                _ if !use_names => None,
                Some(Value::List(l)) => l.names.clone(),
                Some(Value::Named(n)) => n.names.clone(),
                Some(Value::Str(s)) => Some(s.clone()),
                _ => None,
            };
            match (labels, result) {
                (Some(ls), Value::List(mut l))
                    if l.names.is_none() && l.items.len() == ls.len() =>
                {
                    l.names = Some(ls);
                    Value::List(l)
                }
                (Some(ls), r @ (Value::Mat(_) | Value::BoolMat(_) | Value::StrMat(_))) => {
                    dimnamed(r, None, Some(ls))
                }
                (Some(ls), r)
                    if !matches!(r, Value::List(_) | Value::Named(_)) && r.len() == ls.len() =>
                {
                    named(r, ls)
                }
                (_, r) => r,
            }
        }
        "sapply" | "vapply" | "lapply" => {
            let use_names = matched
                .and_then(|m| m.get_if_formal("USE.NAMES"))
                .and_then(Value::as_flag)
                .unwrap_or(true);
            // vapply names the rows by FUN.VALUE when it is named.
            let template = matched
                .filter(|_| func == "vapply")
                .and_then(|m| m.get_if_formal("FUN.VALUE"))
                .and_then(names);
            let result = match (template, result.dims()) {
                (Some(t), Some((r, _))) if t.len() == r && r > 1 => {
                    with_rownames(result, t.to_vec())
                }
                _ => result,
            };
            let Some(x) = matched.and_then(|m| m.get_if_formal("X")) else {
                return result;
            };
            let labels = match x {
                Value::List(l) => l.names.clone(),
                Value::Str(s) if use_names && func != "lapply" => Some(s.clone()),
                Value::Named(n) => match (&n.names, &n.value) {
                    (Some(ns), _) => Some(ns.clone()),
                    (None, _) => None,
                },
                _ => None,
            };
            let Some(labels) = labels else {
                return result;
            };
            match result {
                Value::List(mut l) if l.names.is_none() && l.items.len() == labels.len() => {
                    l.names = Some(labels);
                    Value::List(l)
                }
                r if r.dims().is_some() => with_colnames(r, labels),
                // simplify2array's array: X's names name its last dimension.
                r if super::arrays::array_dims(&r)
                    .is_some_and(|d| d.last() == Some(&labels.len())) =>
                {
                    let k = super::arrays::array_dims(&r).map_or(0, |d| d.len());
                    let mut dn = vec![Value::Null; k - 1];
                    dn.push(Value::Str(labels));
                    with_attr(r, "dimnames", Value::List(List::sequence(dn)))
                }
                // unlist's names: "x.a" for the value named "a" of X's "x".
                r => {
                    let labels = match (func, names(&r)) {
                        ("sapply", Some(inner)) if inner.len() == labels.len() => labels
                            .iter()
                            .zip(inner)
                            .map(|(o, i)| match (o.is_empty(), i.is_empty()) {
                                (_, true) => o.clone(),
                                (true, false) => i.clone(),
                                (false, false) => format!("{o}.{i}"),
                            })
                            .collect(),
                        _ => labels,
                    };
                    named(r, labels)
                }
            }
        }
        "apply" => {
            let Some(x) = matched.and_then(|m| m.get_if_formal("X")) else {
                return result;
            };
            let margin = matched
                .and_then(|m| m.get_if_formal("MARGIN"))
                .and_then(Value::as_scalar);
            let (rows, cols) = table_dimnames(x);
            let labels = match margin {
                Some(1.0) => rows,
                Some(2.0) => cols,
                _ => None,
            };
            match (labels, result) {
                // A list of ragged results is named as a vector would be.
                (Some(l), Value::List(mut list))
                    if list.names.is_none()
                        && list.class.is_none()
                        && l.len() == list.items.len() =>
                {
                    list.names = Some(l);
                    Value::List(list)
                }
                (Some(l), result) if result.dims().is_none() => named(result, l),
                (Some(l), result) => with_colnames(result, l),
                (None, result) => result,
            }
        }
        "colMeans" | "colSums" | "rowMeans" | "rowSums" => {
            let Some(x) = x else { return result };
            let (rows, cols) = table_dimnames(x);
            let labels = if func.starts_with("col") { cols } else { rows };
            match labels {
                Some(l) => named(result, l),
                None => result,
            }
        }
        "cor" | "cov" | "var" => {
            let columns = |v: &Value| table_dimnames(v).1;
            let y = matched.and_then(|m| m.get_if_formal("y"));
            let rows = x.and_then(columns);
            let cols = match y {
                Some(y) => columns(y),
                None => rows.clone(),
            };
            dimnamed(result, rows, cols)
        }
        "t" => match x {
            Some(x) => {
                let (r, c) = table_dimnames(x);
                match names(x) {
                    Some(ns) => dimnamed(result, None, Some(ns.to_vec())),
                    None => dimnamed(result, c, r),
                }
            }
            None => result,
        },
        "addmargins" => addmargins_names(matched, first, result),
        // `as.matrix` of a data frame is named as `t` reads it; a named
        // vector becomes a column named by its names.
        "as.matrix" => match x {
            // A dist's labels, 1 to n when it has none (as.matrix.dist).
            Some(Value::List(l)) if l.class.as_deref() == Some("dist") => {
                let n = result.dims().map_or(0, |d| d.0);
                let labels: Vec<String> = match l.field("labels") {
                    Some(Value::Str(s)) if s.len() == n => s.clone(),
                    _ => (1..=n).map(|i| i.to_string()).collect(),
                };
                dimnamed(result, Some(labels.clone()), Some(labels))
            }
            Some(x) => match names(x) {
                Some(ns) => dimnamed(result, Some(ns.to_vec()), None),
                None => {
                    let (r, c) = table_dimnames(x);
                    dimnamed(result, r, c)
                }
            },
            None => result,
        },
        _ => result,
    }
}

/// addmargins' result named as R's `expand.one` names it: each margin's
/// new slice labelled "Sum" (FUN's own label when one is given is not
/// known here, so a result with a FUN is left unnamed).
fn addmargins_names(matched: Option<&Args<&Value>>, first: Option<&Value>, result: Value) -> Value {
    let a = matched.and_then(|m| m.get_if_formal("A")).or(first);
    let Some(a) = a else { return result };
    if matched.is_some_and(|m| m.get_if_formal("FUN").is_some()) {
        return result;
    }
    let extents = if a.dims().is_some() { 2 } else { 1 };
    let margin: Vec<usize> = match matched.and_then(|m| m.get_if_formal("margin")) {
        Some(m) => match m.as_f64_slice() {
            Some(v) => v.iter().map(|&k| k as usize).collect(),
            None => return result,
        },
        None => (1..=extents).collect(),
    };
    let grown = |ns: Option<&[String]>, k: usize| {
        ns.map(|ns| {
            let mut ns = ns.to_vec();
            ns.extend(
                margin
                    .iter()
                    .filter(|&&m| m == k)
                    .map(|_| "Sum".to_string()),
            );
            ns
        })
    };
    if extents == 1 {
        return match grown(names(a), 1) {
            Some(ns) => named(result, ns),
            None => result,
        };
    }
    let (rows, cols) = dimnames(a);
    dimnamed(result, grown(rows, 1), grown(cols, 2))
}

/// The names of the first of `candidates` whose length (or dimensions)
/// equal the result's.
fn same_shape<'a>(candidates: impl Iterator<Item = &'a Value>, result: Value) -> Value {
    for c in candidates {
        let Value::Named(n) = c else { continue };
        match (result.dims(), n.value.dims()) {
            (Some(a), Some(b)) if a == b => {
                return dimnamed(result, n.rownames.clone(), n.colnames.clone())
            }
            (None, None) if n.value.len() == result.len() => {
                if let Some(ns) = &n.names {
                    return named(result, ns.clone());
                }
            }
            _ => {}
        }
    }
    result
}

/// R's names for `c(...)`: an argument's name, or its own names, or both
/// (`c(a = c(x = 1, y = 2))` is `a.x`, `a.y`), numbered when a named
/// argument has several unnamed elements (`a1`, `a2`). `None` when nothing
/// is named.
fn combined_names(given: &[(Option<String>, &Value)]) -> Option<Vec<String>> {
    let any = given
        .iter()
        .any(|(tag, v)| tag.as_deref().is_some_and(|t| !t.is_empty()) || names(v).is_some());
    if !any {
        return None;
    }
    let mut out = Vec::new();
    for (tag, v) in given {
        let inner = names(v);
        let n = match bare(v) {
            Value::List(l) => l.items.len(),
            other => other.len(),
        };
        let tag = tag.as_deref().filter(|t| !t.is_empty());
        for k in 0..n {
            let own = inner.map(|ns| ns[k].as_str()).filter(|s| !s.is_empty());
            out.push(match (tag, own) {
                (Some(t), Some(o)) => format!("{t}.{o}"),
                (Some(t), None) if n == 1 => t.to_string(),
                (Some(t), None) => format!("{t}{}", k + 1),
                (None, Some(o)) => o.to_string(),
                (None, None) => String::new(),
            });
        }
    }
    Some(out)
}

/// R's names for `unlist(l)`: as [`combined_names`] with the list's names
/// as the tags.
fn unlist_names(l: &List) -> Option<Vec<String>> {
    let tags = l.names.as_ref();
    let given: Vec<(Option<String>, &Value)> = l
        .items
        .iter()
        .enumerate()
        .map(|(k, v)| (tags.map(|t| t[k].clone()), v))
        .collect();
    if given.iter().any(|(_, v)| matches!(bare(v), Value::List(_))) {
        return None;
    }
    combined_names(&given)
}

/// `sort(x)` of a named vector: the names follow their elements. R sorts a
/// named vector through `order`, which is stable, and drops NAs.
fn sorted_names(x: &Value, matched: Option<&Args<&Value>>, result: Value) -> Value {
    let Some(ns) = names(x) else { return result };
    let decreasing = matched
        .and_then(|m| m.get_if_formal("decreasing"))
        .and_then(Value::as_flag)
        .unwrap_or(false);
    let order: Option<Vec<usize>> = match bare(x) {
        Value::Num(v) => {
            let mut idx: Vec<usize> = (0..v.len()).filter(|&i| !v[i].is_nan()).collect();
            idx.sort_by(|&a, &b| {
                let o = v[a].total_cmp(&v[b]);
                if decreasing {
                    o.reverse()
                } else {
                    o
                }
            });
            Some(idx)
        }
        Value::Str(s) => {
            let mut idx: Vec<usize> = (0..s.len()).filter(|&i| s[i] != "NA").collect();
            idx.sort_by(|&a, &b| {
                let o = super::collate::compare(&s[a], &s[b]);
                if decreasing {
                    o.reverse()
                } else {
                    o
                }
            });
            Some(idx)
        }
        _ => None,
    };
    match order {
        Some(idx) if idx.len() == result.len() => {
            named(result, idx.into_iter().map(|i| ns[i].clone()).collect())
        }
        _ => result,
    }
}

/// `names(x)`: a vector's names, a list's or data frame's names, or NULL.
pub fn names_of(x: &Value) -> Value {
    match x {
        Value::List(l) => l.names.clone().map_or(Value::Null, Value::Str),
        Value::Named(n) => n.names.clone().map_or(Value::Null, Value::Str),
        _ => Value::Null,
    }
}

/// `setNames(x, nm)` / `names(x) <- nm`: R pads short names with NA and
/// refuses long ones.
pub fn set_names(x: &Value, nm: &Value) -> Result<Value, KernelError> {
    let labels: Option<Vec<String>> = match bare(nm) {
        Value::Null => None,
        Value::Str(s) => Some(s.clone()),
        Value::Factor(f) => Some(f.labels()),
        other => match other.as_f64_slice() {
            Some(v) => Some(v.iter().map(|&x| super::data::r_num_to_string(x)).collect()),
            None => {
                return Err(KernelError::new(format!(
                    "names must be a character vector, not {}",
                    other.type_name()
                )))
            }
        },
    };
    let value = bare(x).clone();
    let table = table_dnn(x)
        .filter(|_| value.dims().is_none())
        .map(<[String]>::to_vec);
    let Some(mut labels) = labels else {
        return Ok(match value {
            Value::List(mut l) => {
                l.names = None;
                Value::List(l)
            }
            v => v,
        });
    };
    let n = match &value {
        Value::List(l) => l.items.len(),
        v => v.len(),
    };
    if labels.len() > n {
        return Err(KernelError::new(format!(
            "'names' attribute [{}] must be the same length as the vector [{n}]",
            labels.len()
        )));
    }
    labels.resize(n, "NA".to_string());
    match value {
        Value::List(mut l) => {
            l.names = Some(labels);
            Ok(Value::List(l))
        }
        v @ (Value::Num(_)
        | Value::Str(_)
        | Value::Bool(_)
        | Value::Complex(_)
        | Value::Factor(_)) => Ok(match table {
            Some(dnn) => tabled(named(v, labels), dnn),
            None => named(v, labels),
        }),
        Value::Null => Ok(Value::Null),
        other => Err(KernelError::new(format!(
            "flowcast keeps names on vectors and lists, not on a {}",
            other.type_name()
        ))),
    }
}

/// `100 * p` as R formats it for a label, then `suffix`: `digits`
/// significant digits without trailing zeros, each number its own
/// decimals (`formatC(format = "fg")`) or, when `common`, all of them the
/// most any needs (`format`). quantile's names and confint's columns.
pub fn percent_labels(probs: &[f64], digits: i32, common: bool, suffix: &str) -> Vec<String> {
    let decimals = |x: f64| -> usize {
        if x == 0.0 || !x.is_finite() {
            return 0;
        }
        let d = (digits - 1 - x.abs().log10().floor() as i32).clamp(0, 15) as usize;
        let text = format!("{x:.d$}");
        match text.split_once('.') {
            Some((_, frac)) => frac.trim_end_matches('0').len(),
            None => 0,
        }
    };
    let shared = common.then(|| {
        probs
            .iter()
            .map(|&p| decimals(100.0 * p))
            .max()
            .unwrap_or(0)
    });
    probs
        .iter()
        .map(|&p| {
            let x = 100.0 * p;
            if x.is_nan() {
                return String::new();
            }
            let d = shared.unwrap_or_else(|| decimals(x));
            format!("{x:.d$}{suffix}")
        })
        .collect()
}

/// Positions (0-based, `None` for no match) of character subscripts among
/// `labels`: R's exact match, the first of equal names.
pub fn positions_of(wanted: &[String], labels: Option<&[String]>) -> Vec<Option<usize>> {
    let Some(labels) = labels else {
        return vec![None; wanted.len()];
    };
    let mut first = std::collections::HashMap::with_capacity(labels.len());
    for (i, l) in labels.iter().enumerate() {
        first.entry(l.as_str()).or_insert(i);
    }
    wanted
        .iter()
        .map(|w| {
            if w == "NA" || w.is_empty() {
                None
            } else {
                first.get(w.as_str()).copied()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nums(v: &[f64]) -> Value {
        Value::Num(v.to_vec())
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn combining_names_follows_r() {
        let x = named(nums(&[1.0, 2.0]), s(&["x", "y"]));
        let plain = nums(&[3.0, 4.0]);
        let one = nums(&[5.0]);
        let given = vec![
            (Some("a".to_string()), &x),
            (Some("b".to_string()), &plain),
            (Some("c".to_string()), &one),
            (None, &plain),
        ];
        assert_eq!(
            combined_names(&given).unwrap(),
            s(&["a.x", "a.y", "b1", "b2", "c", "", ""])
        );
        assert_eq!(combined_names(&[(None, &plain)]), None);
    }

    #[test]
    fn strip_reaches_into_lists_and_borrows_when_clean() {
        let x = named(nums(&[1.0]), s(&["a"]));
        let l = Value::List(List::sequence(vec![x, nums(&[2.0])]));
        assert_eq!(
            strip(&l).into_owned(),
            Value::List(List::sequence(vec![nums(&[1.0]), nums(&[2.0])]))
        );
        let clean = nums(&[1.0]);
        assert!(matches!(strip(&clean), Cow::Borrowed(_)));
    }

    #[test]
    fn sort_carries_names_stably_and_drops_na() {
        let x = named(nums(&[3.0, 1.0, f64::NAN, 1.0]), s(&["a", "b", "c", "d"]));
        let out = carry("sort", &[(None, &x)], None, nums(&[1.0, 1.0, 3.0]));
        assert_eq!(names(&out).unwrap(), &s(&["b", "d", "a"])[..]);
    }

    #[test]
    fn names_must_fit_to_be_kept() {
        assert!(matches!(named(nums(&[1.0, 2.0]), s(&["a"])), Value::Num(_)));
        assert!(set_names(&nums(&[1.0]), &Value::Str(s(&["a", "b"]))).is_err());
        let padded = set_names(&nums(&[1.0, 2.0]), &Value::Str(s(&["a"]))).unwrap();
        assert_eq!(names(&padded).unwrap(), &s(&["a", "NA"])[..]);
    }

    /// Each rule asks for the formals it needs; a function without one
    /// (`lapply` has no `x` and no `USE.NAMES`) must not trip the matcher.
    #[test]
    fn rules_ask_only_for_formals_the_function_has() {
        let k = super::super::registry().get("lapply").unwrap();
        let x = Value::List(List {
            class: None,
            names: Some(s(&["u", "v"])),
            items: vec![nums(&[1.0]), nums(&[2.0])],
            row_names: None,
        });
        let f = Value::string("sqrt");
        let given = vec![(None, &x), (None, &f)];
        let matched = Args::match_call(k.name, k.params, given.clone()).unwrap();
        let result = Value::List(List::sequence(vec![nums(&[1.0]), nums(&[1.5])]));
        let out = carry("lapply", &given, Some(&matched), result);
        match out {
            Value::List(l) => assert_eq!(l.names, Some(s(&["u", "v"]))),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn operators_take_the_first_operand_of_the_result_length() {
        let short = named(nums(&[1.0]), s(&["k"]));
        let long = named(nums(&[1.0, 2.0]), s(&["p", "q"]));
        let out = carry(
            "+",
            &[(None, &short), (None, &long)],
            None,
            nums(&[2.0, 3.0]),
        );
        assert_eq!(names(&out).unwrap(), &s(&["p", "q"])[..]);
    }
}
