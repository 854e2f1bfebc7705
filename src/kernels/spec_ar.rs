//! R's `spec.ar(x, n.freq, order, plot, na.action, method)`
//! (stats/R/spectrum.R): the spectral density of an autoregression at
//! `n.freq` frequencies from 0 to a half cycle per observation (times
//! the frequency), fitted by `ar` to the series `x` or read from `x`, an
//! `ar` fit. The value is R's list of class `spec` (its `n.used` is R's
//! `nrow()` of the fit, a list: NULL); flowcast draws nothing, so `plot`
//! is read and the value returned as with `plot = FALSE`. A matrix of
//! series (R's `.NotYetImplemented()`) is refused.

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::{List, Value};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "spec.ar",
    params: &[
        req("x"),
        opt("n.freq"),
        opt("order"),
        opt("plot"),
        opt("na.action"),
        opt("method"),
        DOTS,
    ],
    random: false,
    shape,
    eval,
}];

const NOT_A_FIT: &str = "'x' must be a time series or an ar() fit";

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let err = KernelError::new;
    let given = args.get("x").unwrap_or(&Value::Null);
    if args.has("na.action") {
        return Err(err(
            "flowcast's spec.ar takes only R's default na.action (na.fail)",
        ));
    }
    let fit: Vec<(String, Value)> = match bare(given) {
        Value::List(l) => {
            let names = l.names.clone().unwrap_or_default();
            if ["ar", "var.pred", "order"]
                .iter()
                .any(|f| !names.iter().any(|n| n == f))
            {
                return Err(err(NOT_A_FIT));
            }
            names.into_iter().zip(l.items.iter().cloned()).collect()
        }
        _ => {
            let xtsp = super::ts::tsp_of(given);
            let order = match args.get("order").map(bare) {
                None | Some(Value::Null) => None,
                Some(v) => Some(v),
            };
            let method = super::acf::match_arg(
                args.get("method"),
                &["yule-walker", "burg", "ols", "mle", "yw"],
            )?;
            // ar(x, is.null(order), order, method = method)
            let fields = match method {
                "ols" => super::ar_ols::ar_ols(
                    Some(given),
                    xtsp,
                    &super::ar_ols::Options {
                        aic: order.is_none(),
                        order_max: match order {
                            None => None,
                            Some(v) => Some(v.as_scalar().ok_or_else(|| {
                                err("flowcast's spec.ar takes one number as 'order'")
                            })?),
                        },
                        demean: true,
                        intercept: true,
                    },
                )?,
                "mle" => {
                    return Err(err(
                        "flowcast's ar has no method \"mle\": R's ar.mle fits every order by arima0, which flowcast does not port",
                    ))
                }
                m => {
                    let aic = Value::Bool(vec![Some(order.is_none())]);
                    super::ar::fit_series(
                        Some(given),
                        xtsp,
                        &super::ar::Fit {
                            burg: m == "burg",
                            aic: Some(&aic),
                            order_max: order,
                            demean: true,
                            var_method: 1.0,
                        },
                    )?
                }
            };
            fields
                .into_iter()
                .map(|(n, v)| (n.to_string(), v))
                .collect()
        }
    };
    let field = |name: &str| {
        fit.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| bare(v).clone())
    };
    let num = |name: &str| -> Result<Vec<f64>, KernelError> {
        field(name)
            .and_then(|v| v.as_f64_slice().map(|s| s.into_owned()))
            .ok_or_else(|| KernelError::new(format!("an ar fit whose '{name}' is not numeric")))
    };
    let ar = num("ar")?;
    let order = num("order")?.first().copied().unwrap_or(0.0);
    // as.vector(x$var.pred): one series, one variance.
    let var_p = match num("var.pred")?.as_slice() {
        [v] => *v,
        _ => {
            return Err(err(
                "flowcast's spec.ar takes a fit of one series (R's multivariate spec.ar is not implemented)",
            ))
        }
    };
    let xfreq = match field("frequency") {
        Some(v) => v
            .as_scalar()
            .ok_or_else(|| err("an ar fit whose 'frequency' is not one number"))?,
        None => return Err(err("an ar fit without its 'frequency'")),
    };
    let n_freq = match args.get("n.freq").map(bare) {
        None => 500.0,
        Some(v) => v
            .as_scalar()
            .ok_or_else(|| err("argument 'length.out' must be of length 1"))?,
    };
    if n_freq.is_nan() || n_freq < 0.0 {
        return Err(err("'length.out' must be a non-negative number"));
    }
    if n_freq > 1e7 {
        return Err(err("flowcast's spec.ar takes an 'n.freq' up to 1e7"));
    }
    let freq = super::data::seq_spaced(0.0, 0.5, n_freq.ceil() as usize)?;
    let p = order as usize;
    if order >= 1.0 && ar.len() != p {
        return Err(err("an ar fit whose 'ar' is not of its order"));
    }
    let spec = if order >= 1.0 {
        // outer(freq, 1:order, function(x, y) cos(2*pi*x*y)) %*% x$ar,
        // each sum in the order of the lags, as dgemv adds them.
        let two_pi = 2.0 * std::f64::consts::PI;
        let spec: Vec<f64> = freq
            .iter()
            .map(|&f| {
                let (mut cs, mut sn) = (0.0, 0.0);
                for (j, a) in ar.iter().enumerate() {
                    let w = two_pi * f * (j + 1) as f64;
                    cs += a * w.cos();
                    sn += a * w.sin();
                }
                var_p / (xfreq * ((1.0 - cs) * (1.0 - cs) + sn * sn))
            })
            .collect();
        Value::Mat(nalgebra::DMatrix::from_vec(freq.len(), 1, spec))
    } else {
        Value::Num(vec![var_p / xfreq; freq.len()])
    };
    let mut fields = vec![
        ("freq", Value::Num(freq.iter().map(|f| f * xfreq).collect())),
        ("spec", spec),
        ("coh", Value::Null),
        ("phase", Value::Null),
        ("n.used", Value::Null),
    ];
    // A fit's own series name; a series' is its text, which the
    // evaluator adds.
    if let Some(s) = field("series") {
        fields.push(("series", s));
    }
    fields.push((
        "method",
        Value::string(&format!("AR ({}) spectrum ", order as i64)),
    ));
    Ok(Value::List(List::record("spec", fields)))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t @ (Type::Str { .. } | Type::Bool { .. })) = args.ty("x") {
        return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())));
    }
    let s = || Type::Str {
        len: Some(1),
        value: None,
    };
    Ok(Type::record(
        "spec",
        vec![
            (
                "freq",
                Type::Num {
                    len: None,
                    value: None,
                },
            ),
            ("spec", Type::Any),
            ("coh", Type::Null),
            ("phase", Type::Null),
            ("n.used", Type::Null),
            ("series", s()),
            ("method", s()),
        ],
    ))
}
