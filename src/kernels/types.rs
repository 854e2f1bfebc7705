//! Static types with shapes: what shape inference knows about a value before
//! anything runs. The cost models read these sizes, so a plan can be
//! predicted from the file alone.
//!
//! `None` in a dimension means "not known until run time". Small constant
//! numbers and strings are carried (`value`), because sizes are written as
//! expressions (`rnorm(1200 * 1200)`, `1:N`) and options as strings
//! (`method = "ward.D2"`) that shape rules must check.

/// Largest constant vector carried through inference; larger constants are
/// only known by length.
pub const MAX_CONST_LEN: usize = 4096;

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Null,
    Num {
        len: Option<usize>,
        value: Option<Vec<f64>>,
    },
    Mat {
        rows: Option<usize>,
        cols: Option<usize>,
    },
    Complex {
        len: Option<usize>,
    },
    ComplexMat {
        rows: Option<usize>,
        cols: Option<usize>,
    },
    Str {
        len: Option<usize>,
        value: Option<Vec<String>>,
    },
    Bool {
        len: Option<usize>,
        /// `None` entries are NA.
        value: Option<Vec<Option<bool>>>,
    },
    /// A logical matrix (`m > 0`).
    BoolMat {
        rows: Option<usize>,
        cols: Option<usize>,
    },
    /// A character matrix.
    StrMat {
        rows: Option<usize>,
        cols: Option<usize>,
    },
    /// A classed result object with named fields (`htest`, `eigen`, …).
    Record {
        class: String,
        fields: Vec<(String, Type)>,
    },
    /// An unnamed list, e.g. a loop's value, whose elements share a type.
    List {
        len: Option<usize>,
        elem: Box<Type>,
    },
    Formula {
        response: Option<Box<Type>>,
        terms: Vec<(String, Type)>,
        intercept: bool,
    },
    /// A factor; its levels when known before the run.
    Factor {
        len: Option<usize>,
        levels: Option<Vec<String>>,
        /// An ordered factor's.
        ordered: bool,
    },
    /// Nothing is known (e.g. a field of a list whose type is unknown).
    Any,
}

impl Type {
    /// A numeric vector of known length, value unknown.
    pub fn num(len: usize) -> Type {
        Type::Num {
            len: Some(len),
            value: None,
        }
    }

    /// A numeric vector of unknown length.
    pub fn num_unknown() -> Type {
        Type::Num {
            len: None,
            value: None,
        }
    }

    /// A constant numeric vector (its value kept only if small).
    pub fn num_const(v: Vec<f64>) -> Type {
        let len = v.len();
        Type::Num {
            len: Some(len),
            value: (len <= MAX_CONST_LEN).then_some(v),
        }
    }

    pub fn scalar_const(x: f64) -> Type {
        Type::num_const(vec![x])
    }

    /// A character matrix of the given dims, where known.
    pub fn str_mat(rows: Option<usize>, cols: Option<usize>) -> Type {
        Type::StrMat { rows, cols }
    }

    pub fn mat(rows: usize, cols: usize) -> Type {
        Type::Mat {
            rows: Some(rows),
            cols: Some(cols),
        }
    }

    /// A logical vector of known or unknown length, value unknown.
    pub fn logical(len: Option<usize>) -> Type {
        Type::Bool { len, value: None }
    }

    /// A constant logical vector (its value kept only if small).
    pub fn logical_const(v: Vec<Option<bool>>) -> Type {
        let len = v.len();
        Type::Bool {
            len: Some(len),
            value: (len <= MAX_CONST_LEN).then_some(v),
        }
    }

    pub fn str_const(s: &str) -> Type {
        Type::Str {
            len: Some(1),
            value: Some(vec![s.to_string()]),
        }
    }

    pub fn record(class: &str, fields: Vec<(&str, Type)>) -> Type {
        Type::Record {
            class: class.to_string(),
            fields: fields
                .into_iter()
                .map(|(n, t)| (n.to_string(), t))
                .collect(),
        }
    }

    /// R's `length(x)`, when known.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> Option<usize> {
        match self {
            Type::Null => Some(0),
            Type::Num { len, .. }
            | Type::Complex { len }
            | Type::Str { len, .. }
            | Type::Bool { len, .. }
            | Type::List { len, .. }
            | Type::Factor { len, .. } => *len,
            Type::Mat { rows, cols }
            | Type::ComplexMat { rows, cols }
            // A product past usize (`diag(1e15)`) is no length any value
            // can have: unknown, for the kernel to refuse when it runs.
            | Type::StrMat { rows, cols }
            | Type::BoolMat { rows, cols } => (*rows)?.checked_mul((*cols)?),
            Type::Record { fields, .. } => Some(fields.len()),
            Type::Formula { .. } => Some(3),
            Type::Any => None,
        }
    }

    /// `(rows, cols)` of a matrix; `None` for non-matrices.
    pub fn dims(&self) -> Option<(Option<usize>, Option<usize>)> {
        match self {
            Type::Mat { rows, cols }
            | Type::ComplexMat { rows, cols }
            | Type::StrMat { rows, cols }
            | Type::BoolMat { rows, cols } => Some((*rows, *cols)),
            _ => None,
        }
    }

    /// The constant numbers, when known (numbers and logicals).
    pub fn const_nums(&self) -> Option<Vec<f64>> {
        match self {
            Type::Num { value, .. } => value.clone(),
            Type::Bool { value, .. } => value
                .as_ref()
                .map(|v| v.iter().map(|&b| super::value::logical_f64(b)).collect()),
            _ => None,
        }
    }

    /// The constant single number, when known.
    pub fn const_scalar(&self) -> Option<f64> {
        match self.const_nums() {
            Some(v) if v.len() == 1 => Some(v[0]),
            _ => None,
        }
    }

    /// The constant single string, when known.
    pub fn const_str(&self) -> Option<&str> {
        match self {
            Type::Str { value: Some(v), .. } if v.len() == 1 => Some(&v[0]),
            _ => None,
        }
    }

    /// Numeric data: a numeric vector, a matrix or a logical vector (or unknown).
    pub fn is_numeric(&self) -> bool {
        matches!(
            self,
            Type::Num { .. }
                | Type::Mat { .. }
                | Type::Bool { .. }
                | Type::BoolMat { .. }
                | Type::Any
        )
    }

    /// What is known of a value that is either `self` or `other` (the two
    /// branches of an `if`): the shared kind, with the sizes they agree on.
    pub fn join(&self, other: &Type) -> Type {
        fn same(a: Option<usize>, b: Option<usize>) -> Option<usize> {
            (a == b).then_some(a).flatten()
        }
        if self == other {
            return self.clone();
        }
        match (self, other) {
            (Type::Num { len: a, .. }, Type::Num { len: b, .. }) => Type::Num {
                len: same(*a, *b),
                value: None,
            },
            (Type::Str { len: a, .. }, Type::Str { len: b, .. }) => Type::Str {
                len: same(*a, *b),
                value: None,
            },
            (Type::Bool { len: a, .. }, Type::Bool { len: b, .. }) => Type::Bool {
                len: same(*a, *b),
                value: None,
            },
            (Type::Mat { rows: r1, cols: c1 }, Type::Mat { rows: r2, cols: c2 }) => Type::Mat {
                rows: same(*r1, *r2),
                cols: same(*c1, *c2),
            },
            (Type::List { len: a, elem: e1 }, Type::List { len: b, elem: e2 }) => Type::List {
                len: same(*a, *b),
                elem: Box::new(e1.join(e2)),
            },
            _ => Type::Any,
        }
    }

    /// The same type with constant values forgotten (sizes kept).
    pub fn without_value(&self) -> Type {
        match self {
            Type::Num { len, .. } => Type::Num {
                len: *len,
                value: None,
            },
            Type::Str { len, .. } => Type::Str {
                len: *len,
                value: None,
            },
            Type::Bool { len, .. } => Type::Bool {
                len: *len,
                value: None,
            },
            other => other.clone(),
        }
    }

    /// `x$name` on a record type.
    pub fn field(&self, name: &str) -> Option<&Type> {
        match self {
            Type::Record { class, fields } => {
                let names = fields.iter().map(|(n, _)| n.as_str());
                super::value::match_field(Some(class), names, name).map(|i| &fields[i].1)
            }
            _ => None,
        }
    }

    /// A short description for `flowcast check`: `num[1]`, `mat[1200x1200]`,
    /// `htest`, `list[1200] of num[1]`, `list[2]`.
    pub fn describe(&self) -> String {
        fn d(n: Option<usize>) -> String {
            n.map_or_else(|| "?".to_string(), |n| n.to_string())
        }
        match self {
            Type::Null => "NULL".into(),
            Type::Num { len, value } => match value {
                Some(v) if v.len() == 1 => {
                    format!("num[1] = {}", super::data::r_num_to_string(v[0]))
                }
                _ => format!("num[{}]", d(*len)),
            },
            Type::Mat { rows, cols } => format!("mat[{}x{}]", d(*rows), d(*cols)),
            Type::Complex { len } => format!("cplx[{}]", d(*len)),
            Type::ComplexMat { rows, cols } => format!("cplx mat[{}x{}]", d(*rows), d(*cols)),
            Type::Str { len, value } => match value {
                Some(v) if v.len() == 1 => format!("chr[1] = {:?}", v[0]),
                _ => format!("chr[{}]", d(*len)),
            },
            Type::Bool { len, .. } => format!("lgl[{}]", d(*len)),
            Type::BoolMat { rows, cols } => format!("lgl mat[{}x{}]", d(*rows), d(*cols)),
            Type::StrMat { rows, cols } => format!("chr mat[{}x{}]", d(*rows), d(*cols)),
            Type::Record { class, .. } => class.clone(),
            // Elements of different kinds (a named list's) share nothing to say.
            Type::List { len, elem } if **elem == Type::Any => format!("list[{}]", d(*len)),
            Type::List { len, elem } => format!("list[{}] of {}", d(*len), elem.describe()),
            Type::Formula { .. } => "formula".into(),
            Type::Factor { len, .. } => format!("fct[{}]", d(*len)),
            Type::Any => "?".into(),
        }
    }
}
