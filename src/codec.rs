//! A value as bytes and back, bit for bit (what the cache stores and what
//! ranks send each other under MPI): numbers are stored as
//! their IEEE bits, so NA's payload, -0 and every NaN come back as they
//! went. Decoding checks every length against what is left, so damaged
//! bytes are an error, never a panic or a huge allocation.

use nalgebra::DMatrix;
use num_complex::Complex64;

use crate::diagnostic::StepWarning;
use crate::kernels::value::{Factor, Formula, Lang, List, RowNames};
use crate::kernels::{Rng, Value};

/// Nesting deeper than this is not read back: no workflow makes it (their
/// expressions are limited to less), so only damage can.
const MAX_DEPTH: usize = 5000;

/// Appends `v` to `out`.
pub fn encode(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.push(0),
        Value::Num(x) => {
            out.push(1);
            numbers(x, out);
        }
        Value::Mat(m) => {
            out.push(2);
            dims(m.nrows(), m.ncols(), out);
            numbers(m.as_slice(), out);
        }
        Value::Complex(x) => {
            out.push(3);
            complexes(x, out);
        }
        Value::ComplexMat(m) => {
            out.push(4);
            dims(m.nrows(), m.ncols(), out);
            complexes(m.as_slice(), out);
        }
        Value::Str(s) => {
            out.push(5);
            strings(s, out);
        }
        Value::StrMat(m) => {
            out.push(16);
            dims(m.nrows(), m.ncols(), out);
            strings(m.as_slice(), out);
        }
        Value::Bool(b) => {
            out.push(6);
            logicals(b, out);
        }
        Value::BoolMat(m) => {
            out.push(9);
            dims(m.nrows(), m.ncols(), out);
            logicals(m.as_slice(), out);
        }
        Value::List(l) => {
            out.push(7);
            optional_text(l.class.as_deref(), out);
            match &l.names {
                None => out.push(0),
                Some(n) => {
                    out.push(1);
                    strings(n, out);
                }
            }
            len(l.items.len(), out);
            for item in &l.items {
                encode(item, out);
            }
            match &l.row_names {
                None => out.push(0),
                Some(RowNames::Numbers(v)) => {
                    out.push(1);
                    len(v.len(), out);
                    for x in v {
                        out.extend_from_slice(&x.to_le_bytes());
                    }
                }
                Some(RowNames::Text(v)) => {
                    out.push(2);
                    strings(v, out);
                }
            }
        }
        // A formula built from text holds its text alone.
        Value::Formula(Formula {
            text: Some(t),
            response_label,
            ..
        }) => {
            out.push(13);
            text(t, out);
            optional_text(response_label.as_deref(), out);
        }
        Value::Formula(f) => {
            // Tag 14 is tag 8 with the formula's text after it, so what
            // older versions wrote reads back as it was.
            out.push(if f.source.is_some() { 14 } else { 8 });
            match &f.response {
                None => out.push(0),
                Some(r) => {
                    out.push(1);
                    encode(r, out);
                }
            }
            optional_text(f.response_label.as_deref(), out);
            len(f.terms.len(), out);
            for (label, value) in &f.terms {
                text(label, out);
                encode(value, out);
            }
            out.push(u8::from(f.intercept));
            len(f.predvars.len(), out);
            for (label, call) in &f.predvars {
                text(label, out);
                text(call, out);
            }
            if let Some(s) = &f.source {
                text(s, out);
            }
        }
        Value::Lang(l) => {
            out.push(15);
            text(&l.text, out);
            out.push(u8::from(l.symbol));
        }
        Value::Factor(f) => {
            // An ordered factor has a tag of its own, so what older
            // versions wrote reads back as it was.
            out.push(if f.ordered { 12 } else { 10 });
            strings(&f.levels, out);
            numbers(&f.integer_codes(), out);
        }
        Value::Named(n) => {
            out.push(11);
            encode(&n.value, out);
            for labels in [&n.names, &n.rownames, &n.colnames, &n.table] {
                match labels {
                    None => out.push(0),
                    Some(l) => {
                        out.push(1);
                        strings(l, out);
                    }
                }
            }
            match &n.match_length {
                None => out.push(0),
                Some(l) => {
                    out.push(1);
                    numbers(l, out);
                }
            }
            match &n.tsp {
                None => out.push(0),
                Some(t) => {
                    out.push(1);
                    numbers(t, out);
                }
            }
            len(n.attrs.len(), out);
            for (name, value) in &n.attrs {
                text(name, out);
                encode(value, out);
            }
        }
    }
}

/// Appends a step's warnings.
pub fn encode_warnings(ws: &[StepWarning], out: &mut Vec<u8>) {
    len(ws.len(), out);
    for w in ws {
        text(&w.message, out);
        optional_text(w.call.as_deref(), out);
        len(w.line, out);
        len(w.column, out);
    }
}

/// Appends a random stream's state.
pub fn encode_stream(rng: &Rng, out: &mut Vec<u8>) {
    let (mt, mti, drawn) = rng.to_parts();
    len(mt.len(), out);
    for w in mt {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&mti.to_le_bytes());
    out.extend_from_slice(&drawn.to_le_bytes());
}

pub(crate) fn len(n: usize, out: &mut Vec<u8>) {
    out.extend_from_slice(&(n as u64).to_le_bytes());
}

/// One byte a logical: 0 FALSE, 1 TRUE, 2 NA.
fn logicals(b: &[Option<bool>], out: &mut Vec<u8>) {
    len(b.len(), out);
    out.extend(b.iter().map(|b| match b {
        Some(false) => 0,
        Some(true) => 1,
        None => 2,
    }));
}

fn dims(rows: usize, cols: usize, out: &mut Vec<u8>) {
    len(rows, out);
    len(cols, out);
}

fn numbers(x: &[f64], out: &mut Vec<u8>) {
    len(x.len(), out);
    out.reserve(8 * x.len());
    for v in x {
        out.extend_from_slice(&v.to_bits().to_le_bytes());
    }
}

fn complexes(x: &[Complex64], out: &mut Vec<u8>) {
    len(x.len(), out);
    out.reserve(16 * x.len());
    for c in x {
        out.extend_from_slice(&c.re.to_bits().to_le_bytes());
        out.extend_from_slice(&c.im.to_bits().to_le_bytes());
    }
}

pub(crate) fn text(s: &str, out: &mut Vec<u8>) {
    len(s.len(), out);
    out.extend_from_slice(s.as_bytes());
}

pub(crate) fn optional_text(s: Option<&str>, out: &mut Vec<u8>) {
    match s {
        None => out.push(0),
        Some(s) => {
            out.push(1);
            text(s, out);
        }
    }
}

fn strings(s: &[String], out: &mut Vec<u8>) {
    len(s.len(), out);
    for x in s {
        text(x, out);
    }
}

/// Reads what [`encode`] and [`encode_stream`] wrote.
pub struct Reader<'a> {
    bytes: &'a [u8],
}

/// The bytes are not a value [`encode`] wrote.
#[derive(Debug, PartialEq)]
pub struct Damaged;

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    /// Whether every byte has been read.
    pub fn at_end(&self) -> bool {
        self.bytes.is_empty()
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Damaged> {
        if n > self.bytes.len() {
            return Err(Damaged);
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    pub(crate) fn byte(&mut self) -> Result<u8, Damaged> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn u64(&mut self) -> Result<u64, Damaged> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(b.try_into().map_err(|_| Damaged)?))
    }

    /// A count of items of `size` bytes each, no more than what is left
    /// could hold.
    fn count(&mut self, size: usize) -> Result<usize, Damaged> {
        let n = usize::try_from(self.u64()?).map_err(|_| Damaged)?;
        if n.checked_mul(size.max(1))
            .is_none_or(|b| b > self.bytes.len())
        {
            return Err(Damaged);
        }
        Ok(n)
    }

    pub fn flag(&mut self) -> Result<bool, Damaged> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Damaged),
        }
    }

    fn numbers(&mut self) -> Result<Vec<f64>, Damaged> {
        let n = self.count(8)?;
        let b = self.take(8 * n)?;
        Ok(b.chunks_exact(8)
            .map(|c| {
                f64::from_bits(u64::from_le_bytes([
                    c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
                ]))
            })
            .collect())
    }

    fn complexes(&mut self) -> Result<Vec<Complex64>, Damaged> {
        let n = self.count(16)?;
        let b = self.take(16 * n)?;
        let f = |c: &[u8]| {
            f64::from_bits(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]))
        };
        Ok(b.chunks_exact(16)
            .map(|c| Complex64::new(f(&c[..8]), f(&c[8..])))
            .collect())
    }

    pub(crate) fn text(&mut self) -> Result<String, Damaged> {
        let n = self.count(1)?;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| Damaged)
    }

    fn strings(&mut self) -> Result<Vec<String>, Damaged> {
        // Each string takes at least its 8-byte length.
        let n = self.count(8)?;
        (0..n).map(|_| self.text()).collect()
    }

    fn dims(&mut self) -> Result<(usize, usize), Damaged> {
        let r = usize::try_from(self.u64()?).map_err(|_| Damaged)?;
        let c = usize::try_from(self.u64()?).map_err(|_| Damaged)?;
        Ok((r, c))
    }

    fn matrix<T: nalgebra::Scalar>(
        rows: usize,
        cols: usize,
        data: Vec<T>,
    ) -> Result<DMatrix<T>, Damaged> {
        if rows.checked_mul(cols) != Some(data.len()) {
            return Err(Damaged);
        }
        Ok(DMatrix::from_vec(rows, cols, data))
    }

    /// Logicals as [`logicals`] wrote them.
    fn logicals(&mut self) -> Result<Vec<Option<bool>>, Damaged> {
        let n = self.count(1)?;
        self.take(n)?
            .iter()
            .map(|&x| match x {
                0 => Ok(Some(false)),
                1 => Ok(Some(true)),
                2 => Ok(None),
                _ => Err(Damaged),
            })
            .collect()
    }

    /// The next value.
    pub fn value(&mut self) -> Result<Value, Damaged> {
        self.value_at(0)
    }

    fn value_at(&mut self, depth: usize) -> Result<Value, Damaged> {
        if depth > MAX_DEPTH {
            return Err(Damaged);
        }
        Ok(match self.byte()? {
            0 => Value::Null,
            1 => Value::Num(self.numbers()?),
            2 => {
                let (r, c) = self.dims()?;
                Value::Mat(Self::matrix(r, c, self.numbers()?)?)
            }
            3 => Value::Complex(self.complexes()?),
            4 => {
                let (r, c) = self.dims()?;
                Value::ComplexMat(Self::matrix(r, c, self.complexes()?)?)
            }
            5 => Value::Str(self.strings()?),
            6 => Value::Bool(self.logicals()?),
            16 => {
                let (r, c) = self.dims()?;
                Value::StrMat(Self::matrix(r, c, self.strings()?)?)
            }
            9 => {
                let (r, c) = self.dims()?;
                Value::BoolMat(Self::matrix(r, c, self.logicals()?)?)
            }
            7 => {
                let class = if self.flag()? {
                    Some(self.text()?)
                } else {
                    None
                };
                let names = if self.flag()? {
                    Some(self.strings()?)
                } else {
                    None
                };
                // Each item takes at least its tag byte.
                let n = self.count(1)?;
                let items = (0..n)
                    .map(|_| self.value_at(depth + 1))
                    .collect::<Result<Vec<_>, _>>()?;
                if names.as_ref().is_some_and(|ns| ns.len() != items.len()) {
                    return Err(Damaged);
                }
                let row_names = match self.byte()? {
                    0 => None,
                    1 => {
                        let n = self.count(4)?;
                        Some(RowNames::Numbers(
                            self.take(4 * n)?
                                .chunks_exact(4)
                                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                                .collect(),
                        ))
                    }
                    2 => Some(RowNames::Text(self.strings()?)),
                    _ => return Err(Damaged),
                };
                // Row names belong to a data frame, one per row.
                if let Some(r) = &row_names {
                    let frame = class.as_deref() == Some(crate::kernels::frame::CLASS);
                    if !frame || items.first().is_some_and(|c| c.len() != r.len()) {
                        return Err(Damaged);
                    }
                }
                Value::List(List {
                    class,
                    names,
                    items,
                    row_names,
                })
            }
            tag @ (8 | 14) => {
                let response = if self.flag()? {
                    Some(Box::new(self.value_at(depth + 1)?))
                } else {
                    None
                };
                let response_label = if self.flag()? {
                    Some(self.text()?)
                } else {
                    None
                };
                let n = self.count(9)?;
                let terms = (0..n)
                    .map(|_| Ok((self.text()?, self.value_at(depth + 1)?)))
                    .collect::<Result<Vec<_>, Damaged>>()?;
                let intercept = self.flag()?;
                let n = self.count(16)?;
                let predvars = (0..n)
                    .map(|_| Ok((self.text()?, self.text()?)))
                    .collect::<Result<Vec<_>, Damaged>>()?;
                Value::Formula(Formula {
                    response,
                    response_label,
                    terms,
                    intercept,
                    predvars,
                    text: None,
                    source: if tag == 14 { Some(self.text()?) } else { None },
                })
            }
            15 => Value::Lang(Lang {
                text: self.text()?,
                symbol: self.flag()?,
            }),
            13 => {
                let text = self.text()?;
                let response_label = if self.flag()? {
                    Some(self.text()?)
                } else {
                    None
                };
                Value::Formula(Formula {
                    response: None,
                    response_label,
                    terms: Vec::new(),
                    intercept: true,
                    predvars: Vec::new(),
                    text: Some(text),
                    source: None,
                })
            }
            tag @ (10 | 12) => {
                let levels = self.strings()?;
                let codes = self
                    .numbers()?
                    .into_iter()
                    .map(|c| {
                        if c.is_nan() {
                            Ok(None)
                        } else if c >= 1.0 && c <= levels.len() as f64 && c.fract() == 0.0 {
                            Ok(Some(c as u32 - 1))
                        } else {
                            Err(Damaged)
                        }
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Value::Factor(Factor {
                    codes,
                    levels,
                    ordered: tag == 12,
                })
            }
            11 => {
                let value = self.value_at(depth + 1)?;
                let mut labels = [None, None, None, None];
                for l in &mut labels {
                    if self.flag()? {
                        *l = Some(self.strings()?);
                    }
                }
                let [names, rows, cols, table] = labels;
                let match_length = if self.flag()? {
                    Some(self.numbers()?)
                } else {
                    None
                };
                if match_length
                    .as_ref()
                    .is_some_and(|l| l.len() != value.len())
                {
                    return Err(Damaged);
                }
                let tsp = if self.flag()? {
                    let t = self.numbers()?;
                    Some(<[f64; 3]>::try_from(t.as_slice()).map_err(|_| Damaged)?)
                } else {
                    None
                };
                // A name's length and a value take at least nine bytes.
                let count = self.count(9)?;
                let mut attrs = Vec::with_capacity(count);
                for _ in 0..count {
                    let name = self.text()?;
                    attrs.push((name, self.value_at(depth + 1)?));
                }
                let dims = value.dims();
                let extents = if dims.is_some() { 2 } else { 1 };
                if table.as_ref().is_some_and(|t| t.len() != extents) {
                    return Err(Damaged);
                }
                let fits = match (&names, dims) {
                    (Some(n), None) => n.len() == value.len(),
                    (None, Some((r, c))) => {
                        rows.as_ref().is_none_or(|l| l.len() == r)
                            && cols.as_ref().is_none_or(|l| l.len() == c)
                    }
                    (None, None) => match_length.is_some() || tsp.is_some() || !attrs.is_empty(),
                    _ => false,
                };
                if !fits || matches!(value, Value::Named(_) | Value::List(_)) {
                    return Err(Damaged);
                }
                Value::Named(Box::new(crate::kernels::value::Named {
                    value,
                    names,
                    rownames: rows,
                    colnames: cols,
                    table,
                    match_length,
                    tsp,
                    attrs,
                }))
            }
            _ => return Err(Damaged),
        })
    }

    /// The next warnings.
    pub fn warnings(&mut self) -> Result<Vec<StepWarning>, Damaged> {
        // Each takes at least its message's length, a flag and two numbers.
        let n = self.count(25)?;
        (0..n)
            .map(|_| {
                let message = self.text()?;
                let call = if self.flag()? {
                    Some(self.text()?)
                } else {
                    None
                };
                let line = usize::try_from(self.u64()?).map_err(|_| Damaged)?;
                let column = usize::try_from(self.u64()?).map_err(|_| Damaged)?;
                Ok(StepWarning {
                    message,
                    call,
                    line,
                    column,
                })
            })
            .collect()
    }

    /// The next random stream state.
    pub fn stream(&mut self) -> Result<Rng, Damaged> {
        let n = self.count(4)?;
        let mt = self
            .take(4 * n)?
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let mti = self.u64()?;
        let drawn = self.u64()?;
        Rng::from_parts(mt, mti, drawn).ok_or(Damaged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::value::NA;

    fn round_trip(v: &Value) -> Value {
        let mut b = Vec::new();
        encode(v, &mut b);
        let mut r = Reader::new(&b);
        let back = r.value().expect("decodes");
        assert!(r.at_end());
        back
    }

    fn same_bits(a: &Value, b: &Value) -> bool {
        let (mut x, mut y) = (Vec::new(), Vec::new());
        encode(a, &mut x);
        encode(b, &mut y);
        x == y
    }

    #[test]
    fn every_kind_of_value_comes_back_bit_for_bit() {
        let values = vec![
            Value::Null,
            Value::Num(vec![1.5, NA, f64::NAN, -0.0, f64::INFINITY]),
            Value::Mat(DMatrix::from_vec(2, 3, vec![1.0, 2.0, 3.0, 4.0, 5.0, NA])),
            Value::Complex(vec![Complex64::new(1.0, -2.0)]),
            Value::ComplexMat(DMatrix::from_vec(1, 2, vec![Complex64::new(0.0, 1.0); 2])),
            Value::Str(vec!["a".into(), "é\u{0}b".into(), String::new()]),
            Value::Bool(vec![Some(true), None, Some(false)]),
            Value::BoolMat(DMatrix::from_vec(1, 2, vec![None, Some(true)])),
            Value::StrMat(DMatrix::from_vec(
                2,
                2,
                vec!["a".into(), "é".into(), String::new(), "NA".into()],
            )),
            Value::StrMat(DMatrix::from_vec(0, 3, Vec::new())),
            Value::Factor(Factor {
                codes: vec![Some(1), None, Some(0)],
                levels: vec!["a".into(), "b".into()],
                ordered: true,
            }),
            Value::List(List::record(
                "htest",
                vec![
                    ("p.value", Value::scalar(0.25)),
                    ("method", Value::string("t")),
                ],
            )),
            Value::List(List::sequence(vec![Value::Null, Value::scalar(2.0)])),
            // A fit with what update, add1 and step refit on.
            Value::List(List::record(
                "lm",
                vec![
                    ("coefficients", Value::Num(vec![1.0, 2.0])),
                    ("response", Value::string("log(y)")),
                    ("data", frame_with(None)),
                    ("(weights)", Value::Num(vec![1.0, 0.5, 2.0])),
                ],
            )),
            Value::Formula(Formula {
                response: Some(Box::new(Value::Num(vec![1.0, 2.0]))),
                response_label: Some("y".into()),
                terms: vec![("x".into(), Value::Num(vec![3.0, 4.0]))],
                intercept: false,
                predvars: vec![("ns(x, 3)".into(), "ns(x, knots = 3.5)".into())],
                text: None,
                source: None,
            }),
            Value::Formula(Formula {
                response: Some(Box::new(Value::Num(vec![1.0, 2.0]))),
                response_label: Some("y".into()),
                terms: vec![("x".into(), Value::Num(vec![3.0, 4.0]))],
                intercept: true,
                predvars: Vec::new(),
                text: None,
                source: Some("y ~ x * x".into()),
            }),
            // Built from text (`reformulate`), not yet evaluated.
            Value::Formula(Formula {
                response: None,
                response_label: Some("log(y)".into()),
                terms: Vec::new(),
                intercept: true,
                predvars: Vec::new(),
                text: Some("log(y) ~ x + z".into()),
                source: None,
            }),
            frame_with(Some(RowNames::Numbers(vec![9, 12, 3]))),
            frame_with(Some(RowNames::Text(vec![
                "a".into(),
                "NA".into(),
                "".into(),
            ]))),
            frame_with(None),
            crate::kernels::names::tabled(
                crate::kernels::names::dimnamed(
                    Value::Mat(DMatrix::from_vec(1, 2, vec![3.0, 0.0])),
                    Some(vec!["u".into()]),
                    Some(vec!["p".into(), "q".into()]),
                ),
                vec!["g".into(), String::new()],
            ),
            // determinant's modulus, reorder's factor with its scores.
            crate::kernels::names::with_attr(
                Value::scalar(1.5),
                "logarithm",
                Value::Bool(vec![Some(true)]),
            ),
            crate::kernels::names::with_attr(
                Value::Factor(Factor {
                    codes: vec![Some(1), Some(0)],
                    levels: vec!["b".into(), "a".into()],
                    ordered: false,
                }),
                "scores",
                crate::kernels::names::named(
                    Value::Num(vec![2.0, 1.0]),
                    vec!["a".into(), "b".into()],
                ),
            ),
        ];
        for v in &values {
            let back = round_trip(v);
            assert!(same_bits(v, &back), "{v:?} came back as {back:?}");
        }
        let na = round_trip(&Value::scalar(NA));
        assert!(matches!(na, Value::Num(x) if crate::kernels::value::is_na(x[0])));
    }

    #[test]
    fn a_character_matrix_comes_back_with_its_dims_and_dimnames() {
        let m = crate::kernels::names::dimnamed(
            Value::StrMat(DMatrix::from_vec(
                2,
                3,
                ["a", "bb", "", "NA", "é", "x y"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            )),
            Some(vec!["r1".into(), "r2".into()]),
            Some(vec!["x".into(), "y".into(), "z".into()]),
        );
        let back = round_trip(&m);
        assert_eq!(back, m);
        assert_eq!(back.dims(), Some((2, 3)));
        // Damaged dims (more cells than strings) are an error, not a panic.
        let mut b = Vec::new();
        encode(
            &Value::StrMat(DMatrix::from_vec(1, 2, vec!["a".into(), "b".into()])),
            &mut b,
        );
        b[1] = 9;
        assert!(Reader::new(&b).value().is_err());
    }

    fn frame_with(rows: Option<RowNames>) -> Value {
        crate::kernels::frame::named_frame(
            vec!["x".into()],
            vec![Value::Num(vec![1.0, 2.0, NA])],
            rows,
        )
    }

    /// Row names are a data frame's, one per row: others are damage.
    #[test]
    fn row_names_that_do_not_fit_are_refused() {
        let mut b = Vec::new();
        encode(&frame_with(Some(RowNames::Numbers(vec![1, 2, 3]))), &mut b);
        assert!(Reader::new(&b).value().is_ok());
        let mut short = Vec::new();
        encode(&frame_with(Some(RowNames::Numbers(vec![1, 2]))), &mut short);
        assert_eq!(Reader::new(&short).value(), Err(Damaged));
        let Value::List(mut l) = frame_with(Some(RowNames::Numbers(vec![1, 2, 3]))) else {
            unreachable!()
        };
        l.class = None;
        let mut plain = Vec::new();
        encode(&Value::List(l), &mut plain);
        assert_eq!(Reader::new(&plain).value(), Err(Damaged));
    }

    #[test]
    fn every_truncation_and_any_flipped_tag_is_an_error_not_a_panic() {
        let v = Value::List(List::record(
            "lm",
            vec![
                ("coefficients", Value::Num(vec![1.0, 2.0])),
                ("names", Value::string("x")),
            ],
        ));
        let mut b = Vec::new();
        encode(&v, &mut b);
        for cut in 0..b.len() {
            let mut r = Reader::new(&b[..cut]);
            assert!(r.value().is_err() || !r.at_end() || cut == b.len());
        }
        for i in 0..b.len() {
            let mut c = b.clone();
            c[i] ^= 0xff;
            let _ = Reader::new(&c).value();
        }
    }

    #[test]
    fn a_huge_claimed_length_is_refused_without_allocating() {
        let mut b = vec![1u8];
        b.extend_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(Reader::new(&b).value(), Err(Damaged));
    }

    #[test]
    fn a_stream_comes_back_where_it_was() {
        let mut rng = Rng::from_seed(42);
        rng.skip(1000);
        let mut b = Vec::new();
        encode_stream(&rng, &mut b);
        let mut back = Reader::new(&b).stream().expect("decodes");
        assert_eq!(back.drawn(), 1000);
        let (mut x, mut y) = (rng.clone(), back.clone());
        assert_eq!(x.unif_rand().to_bits(), y.unif_rand().to_bits());
        back.skip(1);
        assert_eq!(back.drawn(), 1001);
    }
}
