//! R's base constants, which a script reads without defining them: `pi`,
//! `letters`, `LETTERS`, `month.name`, `month.abb` and `.Machine` (R's
//! base package binds them; `T` and `F` are read by the parser). A step or
//! local of the same name hides one, as a variable hides it in R.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::value::List;
use super::{Type, Value};

/// `.Machine` as R 4.2 gives it on x86-64 Linux, in R's order. Which of
/// them R types integer is [`MACHINE_INTEGERS`].
const MACHINE: [(&str, f64); 29] = [
    ("double.eps", f64::EPSILON),
    ("double.neg.eps", f64::EPSILON / 2.0),
    ("double.xmin", f64::MIN_POSITIVE),
    ("double.xmax", f64::MAX),
    ("double.base", 2.0),
    ("double.digits", 53.0),
    ("double.rounding", 5.0),
    ("double.guard", 0.0),
    ("double.ulp.digits", -52.0),
    ("double.neg.ulp.digits", -53.0),
    ("double.exponent", 11.0),
    ("double.min.exp", -1022.0),
    ("double.max.exp", 1024.0),
    ("integer.max", 2_147_483_647.0),
    ("sizeof.long", 8.0),
    ("sizeof.longlong", 8.0),
    ("sizeof.longdouble", 16.0),
    ("sizeof.pointer", 8.0),
    ("sizeof.time_t", 8.0),
    ("longdouble.eps", 1.0842021724855044e-19),
    ("longdouble.neg.eps", 5.421010862427522e-20),
    ("longdouble.digits", 64.0),
    ("longdouble.rounding", 5.0),
    ("longdouble.guard", 0.0),
    ("longdouble.ulp.digits", -63.0),
    ("longdouble.neg.ulp.digits", -64.0),
    ("longdouble.exponent", 15.0),
    ("longdouble.min.exp", -16382.0),
    ("longdouble.max.exp", 16384.0),
];

/// Whether field `name` of `.Machine` is an R integer: all but the
/// epsilons and the double range.
pub fn machine_integer(name: &str) -> bool {
    MACHINE.iter().any(|(n, _)| *n == name) && !MACHINE_DOUBLES.contains(&name)
}

const MACHINE_DOUBLES: [&str; 6] = [
    "double.eps",
    "double.neg.eps",
    "double.xmin",
    "double.xmax",
    "longdouble.eps",
    "longdouble.neg.eps",
];

/// R's `month.name`.
pub(super) const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn table() -> &'static HashMap<&'static str, Value> {
    static TABLE: OnceLock<HashMap<&'static str, Value>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let text = |v: Vec<String>| Value::Str(v);
        HashMap::from([
            ("pi", Value::scalar(std::f64::consts::PI)),
            // A bare `T` is parsed as TRUE; these are what `T` reads as a
            // name, once a statement assigns it, where no local holds it
            // yet (`T <- !T`).
            ("T", Value::Bool(vec![Some(true)])),
            ("F", Value::Bool(vec![Some(false)])),
            ("letters", text(('a'..='z').map(String::from).collect())),
            ("LETTERS", text(('A'..='Z').map(String::from).collect())),
            (
                "month.name",
                text(MONTHS.iter().map(|m| m.to_string()).collect()),
            ),
            (
                "month.abb",
                text(MONTHS.iter().map(|m| m[..3].to_string()).collect()),
            ),
            // stats' p.adjust.methods, in R's order.
            (
                "p.adjust.methods",
                text(super::htest::padjust::METHODS.map(String::from).to_vec()),
            ),
            (
                ".Machine",
                Value::List(List::named(
                    MACHINE
                        .iter()
                        .map(|&(n, v)| (n, Value::scalar(v)))
                        .collect(),
                )),
            ),
        ])
    })
}

/// The value of base constant `name`.
pub fn constant(name: &str) -> Option<&'static Value> {
    table().get(name)
}

/// The type of base constant `name`, its value known.
pub fn constant_type(name: &str) -> Option<Type> {
    constant(name).map(|v| match v {
        Value::Num(x) => Type::num_const(x.clone()),
        Value::Str(s) => Type::Str {
            len: Some(s.len()),
            value: Some(s.clone()),
        },
        // `.Machine`, the one list.
        Value::Bool(b) => Type::logical_const(b.clone()),
        Value::List(_) => Type::record(
            "list",
            MACHINE
                .iter()
                .map(|&(n, v)| (n, Type::scalar_const(v)))
                .collect(),
        ),
        _ => Type::Any,
    })
}
