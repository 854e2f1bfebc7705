//! R's base constants, which a script reads without defining them: `pi`,
//! `letters`, `LETTERS`, `month.name` and `month.abb` (R's base package
//! binds them; `T` and `F` are read by the parser). A step or local of
//! the same name hides one, as a variable hides it in R.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::{Type, Value};

const MONTHS: [&str; 12] = [
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
        _ => Type::Any,
    })
}
