//! `loglin(table, margin, start, fit, eps, iter, param, print)`: R 4.2.2's
//! stats/R/loglin.R over stats/src/loglin.c, the iterative proportional
//! fitting of Algorithm AS 51 (`loglin`, with `collap` making a marginal
//! table and `adjust` scaling the fit to it), kept in the original's
//! shape. flowcast's tables are vectors and matrices, so `table` has one
//! or two dimensions; the routines below work on any number.

use super::names::bare;
use super::summary::{ldouble, mean};
use super::value::{List, Named};
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "loglin",
    params: &[
        req("table"),
        req("margin"),
        opt("start"),
        opt("fit"),
        opt("eps"),
        opt("iter"),
        opt("param"),
        opt("print"),
    ],
    random: false,
    shape,
    eval,
}];

/// AS 51.1 `collap`: the marginal table of `x` over the variables of
/// `config` (1-based, a 0 ending the list), added in `x`'s cell order into
/// `y` from `locy` (0-based here).
fn collap(x: &[f64], y: &mut [f64], locy: usize, dim: &[usize], config: &[usize]) {
    let nvar = dim.len();
    let mut size = vec![1usize; nvar + 1];
    let mut n = nvar;
    for k in 1..=nvar {
        let l = config[k - 1];
        if l == 0 {
            n = k - 1;
            break;
        }
        size[k] = size[k - 1] * dim[l - 1];
    }
    for v in &mut y[locy..locy + size[n]] {
        *v = 0.0;
    }
    let mut coord = vec![0usize; nvar];
    let mut i = 0;
    loop {
        let mut j = locy;
        for k in 1..=n {
            j += coord[config[k - 1] - 1] * size[k - 1];
        }
        y[j] += x[i];
        i += 1;
        let mut k = 0;
        loop {
            if k == nvar {
                return;
            }
            coord[k] += 1;
            if coord[k] < dim[k] {
                break;
            }
            coord[k] = 0;
            k += 1;
        }
    }
}

/// AS 51.2 `adjust`: the largest deviation of the fitted marginal `y`
/// from the observed one at `z[locz..]` into `d`, then `x` scaled cell by
/// cell to the observed marginal.
fn adjust(
    x: &mut [f64],
    y: &[f64],
    z: &[f64],
    locz: usize,
    dim: &[usize],
    config: &[usize],
    d: &mut f64,
) {
    let nvar = dim.len();
    let mut size = vec![1usize; nvar + 1];
    let mut n = nvar;
    for k in 1..=nvar {
        let l = config[k - 1];
        if l == 0 {
            n = k - 1;
            break;
        }
        size[k] = size[k - 1] * dim[l - 1];
    }
    for i in 0..size[n] {
        let e = (z[locz + i] - y[i]).abs();
        if e > *d {
            *d = e;
        }
    }
    let mut coord = vec![0usize; nvar];
    let mut i = 0;
    loop {
        let mut j = 0;
        for k in 1..=n {
            j += coord[config[k - 1] - 1] * size[k - 1];
        }
        let k = j + locz;
        if y[j] <= 0.0 {
            x[i] = 0.0;
        }
        if y[j] > 0.0 {
            x[i] = x[i] * z[k] / y[j];
        }
        i += 1;
        let mut k = 0;
        loop {
            if k == nvar {
                return;
            }
            coord[k] += 1;
            if coord[k] < dim[k] {
                break;
            }
            coord[k] = 0;
            k += 1;
        }
    }
}

/// What AS 51 `loglin` reports: `ifault` 1 to 4 as R's LogLin turns them
/// into errors (3 is only a warning, the fit kept).
struct Fitted {
    fit: Vec<f64>,
    nlast: usize,
    ifault: i32,
}

/// AS 51 `loglin`: `config` holds `ncon` columns of `nvar` variable
/// numbers each (0 ending a column).
fn loglin_as51(
    dim: &[usize],
    config: &[usize],
    ncon: usize,
    table: &[f64],
    mut fit: Vec<f64>,
    maxdev: f64,
    maxit: i64,
) -> Fitted {
    let nvar = dim.len();
    let fault = |fit: Vec<f64>, ifault| Fitted {
        fit,
        nlast: 0,
        ifault,
    };
    if maxit <= 0 || dim.contains(&0) {
        return fault(fit, 4);
    }
    let size: usize = dim.iter().product();
    if size > table.len() {
        return fault(fit, 2);
    }
    let mut x = 0.0;
    let mut y = 0.0;
    for i in 0..size {
        if table[i] < 0.0 || fit[i] < 0.0 {
            return fault(fit, 4);
        }
        x += table[i];
        y += fit[i];
    }
    if y == 0.0 {
        return fault(fit, 4);
    }
    x /= y;
    for f in fit.iter_mut().take(size) {
        *f *= x;
    }
    if ncon == 0 || config[0] == 0 {
        return fault(fit, 0);
    }
    let column = |i: usize| &config[i * nvar..(i + 1) * nvar];
    let mut locmar = vec![0usize; ncon];
    let mut point = 0;
    let mut n = ncon;
    for (i, loc) in locmar.iter_mut().enumerate() {
        if column(i)[0] == 0 {
            n = i;
            break;
        }
        let mut size = 1;
        let mut check = vec![false; nvar];
        for &k in column(i) {
            if k == 0 {
                break;
            }
            if k > nvar || check[k - 1] {
                return fault(fit, 1);
            }
            check[k - 1] = true;
            size *= dim[k - 1];
        }
        // U holds a fitted marginal: no larger than the table.
        if size > table.len() {
            return fault(fit, 2);
        }
        *loc = point;
        point += size;
    }
    let mut marg = vec![0.0; point];
    for (i, &loc) in locmar.iter().enumerate().take(n) {
        collap(table, &mut marg, loc, dim, column(i));
    }
    let mut u = vec![0.0; table.len()];
    for k in 1..=maxit {
        let mut xmax = 0.0;
        for (i, &loc) in locmar.iter().enumerate().take(n) {
            collap(&fit, &mut u, 0, dim, column(i));
            adjust(&mut fit, &u, &marg, loc, dim, column(i), &mut xmax);
        }
        if xmax < maxdev {
            return Fitted {
                fit,
                nlast: k as usize,
                ifault: 0,
            };
        }
    }
    Fitted {
        fit,
        nlast: maxit as usize,
        ifault: if maxit > 1 { 3 } else { 0 },
    }
}

/// The table's counts, dims and the names of its dimnames (`None` where
/// R's `names(dimnames(table))` is NULL), and its dimnames.
struct Table {
    data: Vec<f64>,
    dim: Vec<usize>,
    varnames: Option<Vec<String>>,
    dimnames: Vec<Option<Vec<String>>>,
}

fn read_table(v: &Value) -> Result<Table, KernelError> {
    let not_numeric =
        || KernelError::new("flowcast's loglin takes a numeric vector table or matrix as 'table'");
    let (inner, named): (&Value, Option<&Named>) = match v {
        Value::Named(n) => (&n.value, Some(n)),
        v => (v, None),
    };
    let data = match inner {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => {
            inner.as_f64_slice().unwrap_or_default().into_owned()
        }
        _ => return Err(not_numeric()),
    };
    let table_names = named.and_then(|n| n.table.clone());
    let (dim, dimnames) = match inner.dims() {
        Some((r, c)) => (
            vec![r, c],
            vec![
                named.and_then(|n| n.rownames.clone()),
                named.and_then(|n| n.colnames.clone()),
            ],
        ),
        // A one-way table has one dimension; a plain vector has none.
        None if table_names.is_some() => {
            (vec![data.len()], vec![named.and_then(|n| n.names.clone())])
        }
        None => (Vec::new(), Vec::new()),
    };
    let varnames = table_names.filter(|n| n.len() == dim.len());
    Ok(Table {
        data,
        dim,
        varnames,
        dimnames,
    })
}

/// One element of `margin`: numbers, or names matched among `varnames`.
enum Term {
    Numbers(Vec<f64>),
    Names(Vec<String>),
}

/// `margin` as its terms, the list's names, and whether it is a list.
type Margin = (Vec<Term>, Option<Vec<String>>, bool);

fn read_margin(v: &Value) -> Result<Margin, KernelError> {
    let bad =
        || KernelError::new("'margin' must contain names or numbers corresponding to 'table'");
    let term = |v: &Value| -> Result<Term, KernelError> {
        match bare(v) {
            Value::Str(s) => Ok(Term::Names(s.clone())),
            Value::Num(x) => Ok(Term::Numbers(x.clone())),
            Value::Mat(m) => Ok(Term::Numbers(m.as_slice().to_vec())),
            _ => Err(bad()),
        }
    };
    match bare(v) {
        Value::List(l) => {
            let terms = l.items.iter().map(term).collect::<Result<Vec<_>, _>>()?;
            Ok((terms, l.names.clone(), true))
        }
        Value::Num(x) => Ok((
            x.iter().map(|&v| Term::Numbers(vec![v])).collect(),
            None,
            false,
        )),
        Value::Str(s) => Ok((
            s.iter().map(|v| Term::Names(vec![v.clone()])).collect(),
            None,
            false,
        )),
        Value::Null => Ok((Vec::new(), None, true)),
        _ => Err(bad()),
    }
}

fn flag(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    match args.get(name).map(bare) {
        None => Ok(default),
        Some(v @ (Value::Bool(_) | Value::Num(_))) if v.len() == 1 => v
            .as_flag()
            .ok_or_else(|| KernelError::new("missing value where TRUE/FALSE needed")),
        Some(_) => Err(KernelError::new(format!(
            "flowcast's loglin takes '{name}' as TRUE or FALSE"
        ))),
    }
}

fn number(args: &Args<&Value>, name: &str, default: f64) -> Result<f64, KernelError> {
    match args.get(name).map(bare) {
        None => Ok(default),
        Some(v @ (Value::Num(_) | Value::Bool(_))) if !v.is_empty() => {
            Ok(v.as_f64_slice().unwrap_or_default()[0])
        }
        Some(_) => Err(KernelError::new(format!(
            "flowcast's loglin takes '{name}' as a number"
        ))),
    }
}

/// `dtab[t]` of one index: past the dims NA; R's index 0 (a fraction
/// below one) selects nothing, so the product skips it.
fn extent(dtab: &[f64], t: f64) -> f64 {
    match t as usize {
        0 => 1.0,
        i => dtab.get(i - 1).copied().unwrap_or(f64::NAN),
    }
}

/// Column-major coordinates of cell `i` of an array of dims `dim`.
fn coords(mut i: usize, dim: &[usize]) -> Vec<usize> {
    dim.iter()
        .map(|&d| {
            let c = i % d;
            i /= d;
            c
        })
        .collect()
}

/// `apply(fit, vars, mean)`: for each cell of the `vars` margin, R's mean
/// of the cells over the other dimensions in their column-major order.
fn margin_means(fit: &[f64], dim: &[usize], vars: &[usize]) -> Vec<f64> {
    let msize: usize = vars.iter().map(|&v| dim[v]).product();
    let mut groups: Vec<Vec<f64>> = vec![Vec::new(); msize];
    for (i, &f) in fit.iter().enumerate() {
        let c = coords(i, dim);
        let mut j = 0;
        let mut stride = 1;
        for &v in vars {
            j += c[v] * stride;
            stride *= dim[v];
        }
        groups[j].push(f);
    }
    groups.iter().map(|g| mean(g)).collect()
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let table_value = args
        .get("table")
        .ok_or_else(|| KernelError::new("argument \"table\" is missing, with no default"))?;
    let table = read_table(table_value)?;
    let (terms, margin_names, margin_is_list) = read_margin(
        args.get("margin")
            .ok_or_else(|| KernelError::new("argument \"margin\" is missing, with no default"))?,
    )?;
    let rfit = flag(args, "fit", false)?;
    let param = flag(args, "param", false)?;
    flag(args, "print", true)?;
    let nvar = table.dim.len();
    let ncon = terms.len();
    let dtab: Vec<f64> = table.dim.iter().map(|&d| d as f64).collect();
    let mut conf = vec![0usize; nvar * ncon];
    let mut margin: Vec<Vec<f64>> = Vec::with_capacity(ncon);
    let mut nmar = 0.0;
    let bad_margin =
        || KernelError::new("'margin' must contain names or numbers corresponding to 'table'");
    for (k, term) in terms.iter().enumerate() {
        let tmp: Vec<f64> = match term {
            Term::Numbers(x) => x.clone(),
            Term::Names(s) => s
                .iter()
                .map(|s| {
                    table
                        .varnames
                        .as_ref()
                        .and_then(|v| v.iter().position(|n| n == s))
                        .map_or(f64::NAN, |i| (i + 1) as f64)
                })
                .collect(),
        };
        if tmp.iter().any(|&t| t.is_nan() || t <= 0.0) {
            return Err(bad_margin());
        }
        if tmp.len() > nvar {
            return Err(KernelError::new("subscript out of bounds"));
        }
        for (j, &t) in tmp.iter().enumerate() {
            // The integer matrix conf takes R's truncation of the number.
            conf[j + k * nvar] = t.min(1e9) as usize;
        }
        // prod(dtab[tmp]): an index past the dims is NA, which R's
        // allocation of the marginal tables then refuses.
        nmar += tmp.iter().map(|&t| extent(&dtab, t)).product::<f64>();
        margin.push(tmp);
    }
    let ntab = table.data.len();
    let start = match args.get("start").map(bare) {
        None => vec![1.0; ntab],
        Some(v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_))) => {
            v.as_f64_slice().unwrap_or_default().into_owned()
        }
        Some(_) => {
            return Err(KernelError::new(
                "flowcast's loglin takes a numeric 'start'",
            ))
        }
    };
    if start.len() != ntab {
        return Err(KernelError::new("'start' and 'table' must be same length"));
    }
    let eps = number(args, "eps", 0.1)?;
    let iter = number(args, "iter", 20.0)?;
    // asInteger: NA (and what int cannot hold) is NA_INTEGER, negative.
    let maxit: i64 = if iter.is_nan() || iter.abs() >= 2147483648.0 {
        -1
    } else {
        iter.trunc() as i64
    };
    if nmar.is_nan() || maxit < 0 {
        return Err(KernelError::new("negative length vectors are not allowed"));
    }
    if nvar == 0 {
        return Err(KernelError::new("no variables"));
    }
    if maxit > 100_000_000 {
        return Err(KernelError::new("flowcast's loglin takes 'iter' up to 1e8"));
    }
    let z = loglin_as51(
        &table.dim,
        &conf,
        ncon,
        &table.data,
        start.clone(),
        eps,
        maxit,
    );
    match z.ifault {
        1 | 2 => return Err(KernelError::new("this should not happen")),
        3 => ctx.warn("algorithm did not converge"),
        4 => {
            return Err(KernelError::new(
                "incorrect specification of 'table' or 'start'",
            ))
        }
        _ => {}
    }
    let _ = z.nlast;
    let fit = z.fit;
    let (mut observed, mut expected) = (Vec::new(), Vec::new());
    for i in 0..ntab {
        if start[i] > 0.0 {
            observed.push(table.data[i]);
            expected.push(fit[i]);
        }
    }
    let terms_p: Vec<f64> = observed
        .iter()
        .zip(&expected)
        .map(|(o, e)| (o - e) * (o - e) / e)
        .collect();
    let pearson = ldouble::sum(&terms_p).to_f64();
    let terms_l: Vec<f64> = (0..ntab)
        .filter(|&i| table.data[i] * fit[i] > 0.0)
        .map(|i| table.data[i] * (table.data[i] / fit[i]).ln())
        .collect();
    let lrt = 2.0 * ldouble::sum(&terms_l).to_f64();
    let mut df = vec![0.0; 1usize << nvar];
    for m in &margin {
        // subsets(margin[[k]]): in R's order, each a sum of powers of two.
        let mut subsets: Vec<Vec<f64>> = vec![Vec::new()];
        for &t in m {
            let more: Vec<Vec<f64>> = subsets
                .iter()
                .map(|s| {
                    let mut s = s.clone();
                    s.push(t);
                    s
                })
                .collect();
            subsets.extend(more);
        }
        for s in subsets.iter().skip(1) {
            let at = s.iter().map(|&t| 2f64.powf(t - 1.0)).sum::<f64>().trunc() as usize;
            let value: f64 = s.iter().map(|&t| extent(&dtab, t) - 1.0).product();
            if (1..=df.len()).contains(&at) {
                df[at - 1] = value;
            }
        }
    }
    let df_total = ntab as f64 - ldouble::sum(&df).to_f64() - 1.0;
    let named_vars = table
        .varnames
        .as_ref()
        .filter(|v| v.iter().all(|n| !n.is_empty()));
    let margin_items: Vec<Value> = margin
        .iter()
        .map(|m| match named_vars {
            Some(v) => Value::Str(
                m.iter()
                    .filter(|&&t| t >= 1.0)
                    .map(|&t| {
                        v.get(t as usize - 1)
                            .cloned()
                            .unwrap_or_else(|| "NA".into())
                    })
                    .collect(),
            ),
            None => Value::Num(m.clone()),
        })
        .collect();
    let margin_value = if margin_is_list {
        Value::List(List {
            class: None,
            names: margin_names,
            items: margin_items,
            row_names: None,
        })
    } else if named_vars.is_some() {
        Value::Str(
            margin_items
                .iter()
                .flat_map(|v| match v {
                    Value::Str(s) => s.clone(),
                    _ => Vec::new(),
                })
                .collect(),
        )
    } else {
        Value::Num(margin.iter().flatten().copied().collect())
    };
    let mut fields: Vec<(&str, Value)> = vec![
        ("lrt", Value::scalar(lrt)),
        ("pearson", Value::scalar(pearson)),
        ("df", Value::scalar(df_total)),
        ("margin", margin_value),
    ];
    if rfit {
        fields.push(("fit", like_table(table_value, fit.clone())));
    }
    if param {
        fields.push(("param", parameters(&table, &fit, &df)?));
    }
    Ok(Value::List(List::named(fields)))
}

/// `attributes(fit) <- attributes(table)`.
fn like_table(table: &Value, data: Vec<f64>) -> Value {
    let shaped = |v: &Value| match v.dims() {
        Some((r, c)) => Value::Mat(nalgebra::DMatrix::from_vec(r, c, data.clone())),
        None => Value::Num(data.clone()),
    };
    match table {
        Value::Named(n) => {
            let mut n = n.clone();
            n.value = shaped(&n.value);
            Value::Named(n)
        }
        v => shaped(v),
    }
}

/// loglin.R's `param = TRUE`: the log fit's grand mean, then for each
/// term (by increasing order) the means over its margin, swept out.
fn parameters(table: &Table, fit: &[f64], df: &[f64]) -> Result<Value, KernelError> {
    let dim = &table.dim;
    let mut fit: Vec<f64> = fit.iter().map(|f| f.ln()).collect();
    let terms: Vec<usize> = (1..=df.len()).filter(|&i| df[i - 1] > 0.0).collect();
    let intercept = mean(&fit);
    for f in &mut fit {
        *f -= intercept;
    }
    let varnames: Vec<String> = match table
        .varnames
        .as_ref()
        .filter(|v| v.iter().all(|n| !n.is_empty()))
    {
        Some(v) => v.clone(),
        None => (1..=fit.len()).map(|i| i.to_string()).collect(),
    };
    // The dyadic rows, ordered by how many variables each has (R's order
    // is stable).
    let mut rows: Vec<Vec<usize>> = terms
        .iter()
        .map(|&t| {
            (0..usize::BITS as usize)
                .filter(|b| t >> b & 1 == 1)
                .collect()
        })
        .collect();
    rows.sort_by_key(Vec::len);
    let mut names = vec!["(Intercept)".to_string()];
    let mut values = vec![Value::scalar(intercept)];
    for vars in rows {
        if vars.iter().any(|&v| v >= dim.len()) {
            return Err(KernelError::new("'MARGIN' does not match dim(X)"));
        }
        let means = margin_means(&fit, dim, &vars);
        names.push(
            vars.iter()
                .map(|&v| varnames.get(v).cloned().unwrap_or_else(|| "NA".into()))
                .collect::<Vec<_>>()
                .join("."),
        );
        for (i, f) in fit.iter_mut().enumerate() {
            let c = coords(i, dim);
            let mut j = 0;
            let mut stride = 1;
            for &v in &vars {
                j += c[v] * stride;
                stride *= dim[v];
            }
            *f -= means[j];
        }
        let value = if vars.len() == 2 {
            super::names::dimnamed(
                Value::Mat(nalgebra::DMatrix::from_vec(
                    dim[vars[0]],
                    dim[vars[1]],
                    means,
                )),
                table.dimnames[vars[0]].clone(),
                table.dimnames[vars[1]].clone(),
            )
        } else {
            match &table.dimnames[vars[0]] {
                Some(n) => super::names::named(Value::Num(means), n.clone()),
                None => Value::Num(means),
            }
        };
        values.push(value);
    }
    Ok(Value::List(List {
        class: None,
        names: Some(names),
        items: values,
        row_names: None,
    }))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(Type::Str { .. } | Type::List { .. } | Type::Record { .. }) = args.ty("table") {
        return Err(args.error(
            "table",
            "flowcast's loglin takes a numeric vector table or matrix as 'table'",
        ));
    }
    Ok(Type::Any)
}
