//! The messages ranks exchange under MPI, as bytes: values in the cache's
//! bit-exact form ([`crate::codec`]), so a value made on one rank is the
//! same value on another, NA payloads and random streams included.
//! Decoding checks every length: a damaged message is an error, never a
//! panic.

use std::ops::Range;
use std::sync::Arc;

use super::LoopValues;
use crate::codec::{self, Damaged, Reader};
use crate::diagnostic::Span;
use crate::kernels::{Rng, Value, Warning};

/// Rank 0 to every other rank, on the control channel.
#[derive(Debug)]
pub(crate) enum Control {
    /// A run starts: the workflow's file and text (every rank analyses the
    /// same text, whatever the file holds by then), the seed, and how many
    /// workers each rank serves.
    Begin {
        path: String,
        text: String,
        seed: i64,
        per_rank: usize,
    },
    /// The program ends.
    Quit,
}

/// Rank 0 to one worker of another rank.
#[derive(Debug)]
pub(crate) enum Order {
    Run(Run),
    /// The run is over: the worker stops.
    End,
}

/// One piece of work: a call, or a block of a loop's iterations.
#[derive(Debug)]
pub(crate) struct Run {
    pub step: String,
    pub range: Option<Range<usize>>,
    /// Workers the call holds (a moldable call's threads).
    pub width: usize,
    /// Where a random call's stream starts, worked out on rank 0.
    pub start: Option<Rng>,
    /// Each input by name, with its value, or `None` when the rank already
    /// holds it (it made it, or was sent it before).
    pub inputs: Vec<(String, Option<Arc<Value>>)>,
}

/// What a worker made.
#[derive(Debug)]
pub(crate) enum Made {
    Call(Arc<Value>),
    Piece(LoopValues),
}

/// A worker's answer to a [`Run`].
#[derive(Debug)]
pub(crate) struct Reply {
    /// The value, or R's message and the span it points at.
    pub result: Result<Made, (String, Span)>,
    pub side: Side,
    /// Seconds the worker computed, transfers excluded.
    pub seconds: f64,
}

/// What a run leaves besides its value, which rank 0 keeps as if the
/// work had run there.
#[derive(Debug, Default)]
pub(crate) struct Side {
    pub stream_end: Option<Rng>,
    pub path: Option<String>,
    pub warnings: Vec<(usize, Warning)>,
    pub busy_nanos: u64,
    pub fastest_nanos: u64,
}

impl Control {
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            Control::Begin {
                path,
                text,
                seed,
                per_rank,
            } => {
                out.push(1);
                codec::text(path, &mut out);
                codec::text(text, &mut out);
                out.extend_from_slice(&seed.to_le_bytes());
                codec::len(*per_rank, &mut out);
            }
            Control::Quit => out.push(2),
        }
        out
    }

    pub fn decode(bytes: &[u8]) -> Result<Control, Damaged> {
        let mut r = Reader::new(bytes);
        let c = match r.byte()? {
            1 => Control::Begin {
                path: r.text()?,
                text: r.text()?,
                seed: r.u64()? as i64,
                per_rank: size(&mut r)?,
            },
            2 => Control::Quit,
            _ => return Err(Damaged),
        };
        finished(r, c)
    }
}

impl Order {
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            Order::Run(run) => {
                out.push(1);
                codec::text(&run.step, &mut out);
                optional_range(run.range.as_ref(), &mut out);
                codec::len(run.width, &mut out);
                optional_stream(run.start.as_ref(), &mut out);
                codec::len(run.inputs.len(), &mut out);
                for (name, value) in &run.inputs {
                    codec::text(name, &mut out);
                    match value {
                        None => out.push(0),
                        Some(v) => {
                            out.push(1);
                            codec::encode(v, &mut out);
                        }
                    }
                }
            }
            Order::End => out.push(2),
        }
        out
    }

    pub fn decode(bytes: &[u8]) -> Result<Order, Damaged> {
        let mut r = Reader::new(bytes);
        let o = match r.byte()? {
            1 => {
                let step = r.text()?;
                let range = read_range(&mut r)?;
                let width = size(&mut r)?;
                let start = read_stream(&mut r)?;
                let n = size(&mut r)?;
                let mut inputs = Vec::new();
                for _ in 0..n {
                    let name = r.text()?;
                    let value = if r.flag()? {
                        Some(Arc::new(r.value()?))
                    } else {
                        None
                    };
                    inputs.push((name, value));
                }
                Order::Run(Run {
                    step,
                    range,
                    width,
                    start,
                    inputs,
                })
            }
            2 => Order::End,
            _ => return Err(Damaged),
        };
        finished(r, o)
    }
}

impl Reply {
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match &self.result {
            Ok(Made::Call(v)) => {
                out.push(1);
                codec::encode(v, &mut out);
            }
            Ok(Made::Piece(LoopValues::Numbers(x))) => {
                out.push(2);
                codec::encode(&Value::Num(x.clone()), &mut out);
            }
            Ok(Made::Piece(LoopValues::Values(vs))) => {
                out.push(3);
                codec::len(vs.len(), &mut out);
                for v in vs {
                    codec::encode(v, &mut out);
                }
            }
            Err((message, span)) => {
                out.push(4);
                codec::text(message, &mut out);
                codec::len(span.start, &mut out);
                codec::len(span.end, &mut out);
            }
        }
        let side = &self.side;
        optional_stream(side.stream_end.as_ref(), &mut out);
        codec::optional_text(side.path.as_deref(), &mut out);
        codec::len(side.warnings.len(), &mut out);
        for (k, w) in &side.warnings {
            codec::len(*k, &mut out);
            codec::text(&w.message, &mut out);
            optional_range(w.at.map(|(a, b)| a..b).as_ref(), &mut out);
        }
        out.extend_from_slice(&side.busy_nanos.to_le_bytes());
        out.extend_from_slice(&side.fastest_nanos.to_le_bytes());
        out.extend_from_slice(&self.seconds.to_bits().to_le_bytes());
        out
    }

    pub fn decode(bytes: &[u8]) -> Result<Reply, Damaged> {
        let mut r = Reader::new(bytes);
        let result = match r.byte()? {
            1 => Ok(Made::Call(Arc::new(r.value()?))),
            2 => match r.value()? {
                Value::Num(x) => Ok(Made::Piece(LoopValues::Numbers(x))),
                _ => return Err(Damaged),
            },
            3 => {
                let n = size(&mut r)?;
                let mut vs = Vec::new();
                for _ in 0..n {
                    vs.push(r.value()?);
                }
                Ok(Made::Piece(LoopValues::Values(vs)))
            }
            4 => {
                let message = r.text()?;
                let span = Span::new(size(&mut r)?, size(&mut r)?);
                Err((message, span))
            }
            _ => return Err(Damaged),
        };
        let stream_end = read_stream(&mut r)?;
        let path = if r.flag()? { Some(r.text()?) } else { None };
        let n = size(&mut r)?;
        let mut warnings = Vec::new();
        for _ in 0..n {
            let k = size(&mut r)?;
            let message = r.text()?;
            let at = read_range(&mut r)?.map(|a| (a.start, a.end));
            warnings.push((k, Warning { message, at }));
        }
        let busy_nanos = r.u64()?;
        let fastest_nanos = r.u64()?;
        let seconds = f64::from_bits(r.u64()?);
        let reply = Reply {
            result,
            side: Side {
                stream_end,
                path,
                warnings,
                busy_nanos,
                fastest_nanos,
            },
            seconds,
        };
        finished(r, reply)
    }
}

fn size(r: &mut Reader<'_>) -> Result<usize, Damaged> {
    usize::try_from(r.u64()?).map_err(|_| Damaged)
}

fn finished<T>(r: Reader<'_>, t: T) -> Result<T, Damaged> {
    if r.at_end() {
        Ok(t)
    } else {
        Err(Damaged)
    }
}

fn optional_range(range: Option<&Range<usize>>, out: &mut Vec<u8>) {
    match range {
        None => out.push(0),
        Some(r) => {
            out.push(1);
            codec::len(r.start, out);
            codec::len(r.end, out);
        }
    }
}

fn read_range(r: &mut Reader<'_>) -> Result<Option<Range<usize>>, Damaged> {
    if !r.flag()? {
        return Ok(None);
    }
    let start = size(r)?;
    let end = size(r)?;
    if end < start {
        return Err(Damaged);
    }
    Ok(Some(start..end))
}

fn optional_stream(rng: Option<&Rng>, out: &mut Vec<u8>) {
    match rng {
        None => out.push(0),
        Some(rng) => {
            out.push(1);
            codec::encode_stream(rng, out);
        }
    }
}

fn read_stream(r: &mut Reader<'_>) -> Result<Option<Rng>, Damaged> {
    if r.flag()? {
        Ok(Some(r.stream()?))
    } else {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::value::{Factor, List};

    fn values() -> Vec<Value> {
        vec![
            Value::Null,
            Value::Num(vec![1.5, -0.0, f64::NAN, crate::kernels::value::NA]),
            Value::string("a"),
            Value::Bool(vec![Some(true), None]),
            Value::Mat(nalgebra::DMatrix::from_row_slice(
                2,
                2,
                &[1.0, 2.0, 3.0, 4.0],
            )),
            Value::List(List::sequence(vec![Value::scalar(1.0), Value::string("b")])),
            Value::Factor(Factor {
                codes: vec![Some(0), None, Some(1)],
                levels: vec!["x".into(), "y".into()],
                ordered: false,
            }),
        ]
    }

    fn encoded(v: &Value) -> Vec<u8> {
        let mut b = Vec::new();
        codec::encode(v, &mut b);
        b
    }

    #[test]
    fn an_order_comes_back_as_sent() {
        let mut rng = Rng::from_seed(4);
        rng.unif_rand();
        let inputs: Vec<(String, Option<Arc<Value>>)> = values()
            .into_iter()
            .enumerate()
            .map(|(i, v)| (format!("v{i}"), (i % 2 == 0).then(|| Arc::new(v))))
            .collect();
        let order = Order::Run(Run {
            step: "fit".into(),
            range: Some(3..9),
            width: 4,
            start: Some(rng.clone()),
            inputs,
        });
        let bytes = order.encode();
        let Ok(Order::Run(back)) = Order::decode(&bytes) else {
            panic!("decodes")
        };
        assert_eq!(
            (back.step.as_str(), back.range, back.width),
            ("fit", Some(3..9), 4)
        );
        assert_eq!(back.start.map(|mut r| r.unif_rand()), Some(rng.unif_rand()));
        for ((name, got), (i, want)) in back.inputs.iter().zip(values().iter().enumerate()) {
            assert_eq!(name, &format!("v{i}"));
            match got {
                Some(v) => assert_eq!(encoded(v), encoded(want)),
                None => assert!(i % 2 == 1),
            }
        }
        assert!(matches!(
            Order::decode(&Order::End.encode()),
            Ok(Order::End)
        ));
        // Every cut is refused, never a panic.
        for n in 0..bytes.len() {
            assert!(Order::decode(&bytes[..n]).is_err(), "cut at {n}");
        }
    }

    #[test]
    fn a_reply_comes_back_as_sent() {
        let side = || Side {
            stream_end: Some(Rng::from_seed(9)),
            path: Some("symmetric".into()),
            warnings: vec![(
                2,
                Warning {
                    message: "NaNs produced".into(),
                    at: Some((3, 8)),
                },
            )],
            busy_nanos: 12,
            fastest_nanos: 5,
        };
        let replies = vec![
            Ok(Made::Call(Arc::new(values()[5].clone()))),
            Ok(Made::Piece(LoopValues::Numbers(vec![1.0, f64::NAN]))),
            Ok(Made::Piece(LoopValues::Values(values()))),
            Err(("singular".to_string(), Span::new(4, 9))),
        ];
        for result in replies {
            let want = Reply {
                result,
                side: side(),
                seconds: 0.25,
            };
            let bytes = want.encode();
            let back = Reply::decode(&bytes).expect("decodes");
            assert_eq!(back.encode(), bytes);
            assert_eq!(back.side.warnings, side().warnings);
            assert_eq!(back.seconds, 0.25);
            for n in 0..bytes.len() {
                assert!(Reply::decode(&bytes[..n]).is_err(), "cut at {n}");
            }
        }
        let begin = Control::Begin {
            path: "w.toml".into(),
            text: "[steps]\n".into(),
            seed: -3,
            per_rank: 8,
        };
        match Control::decode(&begin.encode()) {
            Ok(Control::Begin { seed, per_rank, .. }) => assert_eq!((seed, per_rank), (-3, 8)),
            other => panic!("{other:?}"),
        }
    }
}
