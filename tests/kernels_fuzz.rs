//! Every registered kernel, its shape rule and its cost formula, called on
//! degenerate arguments: empty, one element, all zero, all NA, constant,
//! denormal, huge, infinite, and the result objects other kernels make of
//! those. Errors are fine; a panic is a bug (issue 13: "no panic or abort on
//! any input").

use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use flowcast::kernels::frame::frame;
use flowcast::kernels::value::{Factor, Formula, Lang, List, NA};
use flowcast::kernels::{index, registry, work, Args, Ctx, Kernel, Rng, ShapeCtx, Type, Value};
use nalgebra::DMatrix;

fn num(v: &[f64]) -> Value {
    Value::Num(v.to_vec())
}

fn mat(r: usize, c: usize, x: f64) -> Value {
    Value::Mat(DMatrix::from_element(r, c, x))
}

/// The degenerate values every kernel must survive, with a few ordinary
/// ones so that a second argument is reached past the first one's checks.
fn base_pool() -> Vec<Value> {
    let tiny = 5e-324;
    vec![
        Value::Null,
        num(&[]),
        num(&[1.0]),
        num(&[0.0]),
        num(&[2.0]),
        num(&[0.0; 5]),
        num(&[NA; 5]),
        num(&[NA]),
        num(&[3.0; 6]),
        num(&[tiny, 1e-320, tiny, 2e-310]),
        num(&[1e308, -1e308, 1e300, 1.7e308]),
        num(&[f64::INFINITY, f64::NEG_INFINITY, f64::NAN]),
        num(&[-1.0]),
        num(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
        num(&[1.0, NA, 3.0, 2.0]),
        mat(0, 0, 0.0),
        mat(0, 3, 0.0),
        mat(3, 0, 0.0),
        mat(1, 1, 0.0),
        mat(1, 1, 1.0),
        mat(4, 4, 0.0),
        mat(3, 3, NA),
        mat(3, 3, 2.0),
        mat(3, 3, 1e-320),
        mat(3, 3, 1e308),
        mat(2, 3, f64::INFINITY),
        mat(1, 4, 1.0),
        mat(4, 1, 1.0),
        Value::Mat(DMatrix::from_fn(4, 3, |i, j| ((i * 3 + j) % 5) as f64)),
        Value::Mat(DMatrix::from_fn(3, 3, |i, j| if i == j { NA } else { 1.0 })),
        Value::Mat(DMatrix::from_fn(4, 3, |i, _| i as f64)),
        Value::Mat(DMatrix::from_fn(3, 2, |i, j| {
            if (i + j) % 2 == 0 {
                1e300
            } else {
                1e-300
            }
        })),
        num(&[1.0, 1.0, 2.0, 2.0, -0.0]),
        Value::Str(vec![]),
        Value::string(""),
        Value::string("a"),
        Value::Str(vec!["1".into(), "x".into()]),
        Value::Bool(vec![]),
        Value::flag(true),
        Value::logical(&[false, true, false]),
        Value::Bool(vec![None]),
        Value::Bool(vec![Some(true), None, Some(false), None]),
        Value::BoolMat(DMatrix::from_vec(
            2,
            2,
            vec![Some(true), None, Some(false), Some(true)],
        )),
        Value::BoolMat(DMatrix::from_vec(0, 2, vec![])),
        Value::Complex(vec![]),
        Value::List(List::default()),
        Value::List(List::sequence(vec![num(&[1.0]), num(&[])])),
        Value::Factor(Factor::default()),
        Value::Factor(Factor {
            codes: vec![Some(1), None, Some(0), Some(1)],
            levels: vec!["a".into(), "b".into(), "unused".into()],
            ordered: false,
        }),
        Value::Factor(Factor {
            codes: vec![None],
            levels: vec![],
            ordered: false,
        }),
        frame(
            vec!["g".into(), "y".into()],
            vec![
                Value::Str(vec!["a".into(), "NA".into(), "b".into()]),
                num(&[1.0, 2.0, NA]),
            ],
        ),
        Value::List(List {
            class: None,
            names: Some(vec!["g".into()]),
            items: vec![Value::Str(vec!["a".into(), "b".into()])],
            row_names: None,
        }),
    ]
}

/// Formulas over pairs of numeric pool values: `y ~ x`, `y ~ x - 1`, `~ x`.
fn formulas(pool: &[Value]) -> Vec<Value> {
    let nums: Vec<&Value> = pool
        .iter()
        .filter(|v| {
            matches!(
                v,
                Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)
            )
        })
        .collect();
    let mut out = Vec::new();
    for y in &nums {
        for x in &nums {
            for intercept in [true, false] {
                out.push(Value::Formula(Formula {
                    response: Some(Box::new((*y).clone())),
                    response_label: Some("y".into()),
                    terms: vec![("x".into(), (*x).clone())],
                    intercept,
                    predvars: Vec::new(),
                    text: None,
                    source: None,
                }));
            }
        }
    }
    out.push(Value::Formula(Formula {
        response: Some(Box::new(num(&[1.0, 2.0, 3.0]))),
        response_label: Some("y".into()),
        terms: vec![],
        intercept: true,
        predvars: Vec::new(),
        text: None,
        source: None,
    }));
    out.push(Value::Formula(Formula {
        response: Some(Box::new(num(&[]))),
        response_label: None,
        terms: vec![],
        intercept: false,
        predvars: Vec::new(),
        text: None,
        source: None,
    }));
    out.push(Value::Formula(Formula {
        response: None,
        response_label: None,
        terms: vec![("x".into(), num(&[1.0, 2.0]))],
        intercept: true,
        predvars: Vec::new(),
        text: None,
        source: None,
    }));
    // Built from text (`reformulate`) and not yet read among any data.
    out.push(Value::Formula(Formula {
        response: None,
        response_label: Some("y".into()),
        terms: vec![],
        intercept: true,
        predvars: Vec::new(),
        text: Some("y ~ x".into()),
        source: None,
    }));
    // A formula's parts (`f[[2]]`, `f[[3]]`): a name and a call.
    out.push(Value::Lang(Lang {
        text: "y".into(),
        symbol: true,
    }));
    out.push(Value::Lang(Lang {
        text: "log(x) + (z)".into(),
        symbol: false,
    }));
    out
}

/// What shape inference knows of `v`: constants kept, as a literal would be.
fn type_of(v: &Value) -> Type {
    match v {
        Value::Named(n) => type_of(&n.value),
        Value::Null => Type::Null,
        Value::Num(x) => Type::num_const(x.clone()),
        Value::Mat(m) => Type::mat(m.nrows(), m.ncols()),
        Value::Complex(x) => Type::Complex { len: Some(x.len()) },
        Value::ComplexMat(m) => Type::ComplexMat {
            rows: Some(m.nrows()),
            cols: Some(m.ncols()),
        },
        Value::Str(s) => Type::Str {
            len: Some(s.len()),
            value: Some(s.clone()),
        },
        Value::Bool(b) => Type::Bool {
            len: Some(b.len()),
            value: Some(b.clone()),
        },
        Value::StrMat(m) => Type::StrMat {
            rows: Some(m.nrows()),
            cols: Some(m.ncols()),
        },
        Value::BoolMat(m) => Type::BoolMat {
            rows: Some(m.nrows()),
            cols: Some(m.ncols()),
        },
        Value::List(l) => match (&l.class, &l.names) {
            (Some(class), Some(names)) => Type::Record {
                class: class.clone(),
                fields: names
                    .iter()
                    .cloned()
                    .zip(l.items.iter().map(type_of))
                    .collect(),
            },
            _ => Type::List {
                len: Some(l.items.len()),
                elem: Box::new(l.items.first().map_or(Type::Any, type_of)),
            },
        },
        Value::Formula(f) => Type::Formula {
            response: f.response.as_ref().map(|r| Box::new(type_of(r))),
            terms: f
                .terms
                .iter()
                .map(|(n, v)| (n.clone(), type_of(v)))
                .collect(),
            intercept: f.intercept,
        },
        Value::Factor(f) => Type::Factor {
            len: Some(f.codes.len()),
            levels: Some(f.levels.clone()),
            ordered: f.ordered,
        },
        Value::Lang(_) => Type::Any,
    }
}

/// How many result objects of each class the second round feeds back:
/// its calls are these times the base pool times each kernel's formals,
/// most of the test's minutes, so the objects are dealt round-robin from
/// the kernels that made them (an `htest` from each test before a second
/// from any) rather than taken in kernel order.
const MADE_PER_CLASS: usize = 8;

/// One call that panicked: where, with what, and the panic's message.
struct Panic {
    what: String,
    args: String,
    message: String,
}

thread_local! {
    /// Where this thread's last panic happened, as the hook saw it.
    static LAST_PANIC_AT: RefCell<String> = const { RefCell::new(String::new()) };
}

fn message(p: &(dyn std::any::Any + Send)) -> String {
    let why = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    let at = LAST_PANIC_AT.with(|at| at.borrow().clone());
    format!("{why} (at {at})")
}

fn short(v: &Value) -> String {
    let s = format!("{v:?}");
    if s.chars().count() > 120 {
        format!("{}…", s.chars().take(120).collect::<String>())
    } else {
        s
    }
}

struct Fuzzer {
    panics: Vec<Panic>,
    calls: usize,
    /// Results worth feeding back: classed objects (`qr`, `hclust`, `dist`…).
    made: Vec<Value>,
    base_dir: &'static Path,
}

impl Fuzzer {
    /// Shape rule, cost formula and evaluator of `k` on `given`.
    fn call(&mut self, k: &Kernel, given: &[(Option<&str>, &Value)]) {
        self.calls += 1;
        let label = || {
            given
                .iter()
                .map(|(n, v)| match n {
                    Some(n) => format!("{n} = {}", short(v)),
                    None => short(v),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let types: Vec<(Option<String>, Type)> = given
            .iter()
            .map(|(n, v)| (n.map(str::to_string), type_of(v)))
            .collect();
        let ctx = ShapeCtx {
            base_dir: self.base_dir,
            written: &[],
            closure: None,
            closure2: None,
        };
        let shaped = catch_unwind(AssertUnwindSafe(|| {
            let typed = Args::match_call(k.name, k.params, types).ok()?;
            let ty = (k.shape)(&typed, &ctx).ok()?;
            let _ = work::work(k.name, &typed, &ty);
            Some(())
        }));
        if let Err(p) = shaped {
            self.panics.push(Panic {
                what: format!("shape of {}", k.name),
                args: label(),
                message: message(&*p),
            });
        }
        let values: Vec<(Option<String>, &Value)> = given
            .iter()
            .map(|(n, v)| (n.map(str::to_string), *v))
            .collect();
        let Ok(matched) = Args::match_call(k.name, k.params, values) else {
            return;
        };
        let mut rng = Rng::from_seed(1);
        // `spin` polls this and stops at once: the fuzz is about panics.
        let cancel = AtomicBool::new(true);
        let mut ctx = Ctx {
            rng: &mut rng,
            base_dir: self.base_dir,
            cancel: &cancel,
            warnings: Vec::new(),
            closure: None,
            closure2: None,
            integers: Vec::new(),
            messages: Default::default(),
        };
        match catch_unwind(AssertUnwindSafe(|| (k.eval)(&matched, &mut ctx))) {
            Ok(Ok(v @ Value::List(List { class: Some(_), .. }))) => {
                let same = self.made.iter().filter(|m| class(m) == class(&v)).count();
                if same < MADE_PER_CLASS {
                    self.made.push(v);
                }
            }
            Ok(_) => {}
            Err(p) => self.panics.push(Panic {
                what: k.name.to_string(),
                args: label(),
                message: message(&*p),
            }),
        }
    }
}

/// Positional calls with one and two arguments from `pool`, then each
/// optional formal named with every pool value beside a first argument.
fn fuzz_kernel(f: &mut Fuzzer, k: &Kernel, pool: &[Value], firsts: &[Value]) {
    f.call(k, &[]);
    for a in pool {
        f.call(k, &[(None, a)]);
        for b in pool {
            f.call(k, &[(None, a), (None, b)]);
        }
    }
    for p in k.params.iter().skip(1).filter(|p| p.name != "...") {
        for a in firsts {
            for v in pool {
                f.call(k, &[(None, a), (Some(p.name), v)]);
            }
        }
    }
}

/// `fuzz` on every kernel of `names`, dealt out to a thread per core (the
/// test's minutes are its calls), each kernel with a fuzzer of its own;
/// the fuzzers come back in `names`' order.
fn each_kernel(
    names: &[&'static str],
    base_dir: &'static Path,
    fuzz: impl Fn(&mut Fuzzer, &Kernel) + Sync,
) -> Vec<Fuzzer> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, Fuzzer)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(name) = names.get(i) else { break };
                        let mut g = Fuzzer {
                            panics: Vec::new(),
                            calls: 0,
                            made: Vec::new(),
                            base_dir,
                        };
                        fuzz(&mut g, registry().get(name).expect("registered"));
                        mine.push((i, g));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a fuzz thread died outside catch_unwind"))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, g)| g).collect()
}

fn class(v: &Value) -> Option<String> {
    match v {
        Value::List(l) => l.class.clone(),
        _ => None,
    }
}

/// Each object the first round made, alone, beside base values either
/// side, and as the first argument with each named formal given base
/// values. The `j`th object of a class takes every other base value
/// positionally and every third by name, starting at `j`: the class as a
/// whole meets the whole pool both ways at a third of the calls (this
/// round was most of the test suite's minutes).
fn fuzz_made(f: &mut Fuzzer, k: &Kernel, made: &[(Value, usize)], base: &[Value]) {
    for (m, j) in made {
        f.call(k, &[(None, m)]);
        for b in base.iter().skip(j % 2).step_by(2) {
            f.call(k, &[(None, m), (None, b)]);
            f.call(k, &[(None, b), (None, m)]);
        }
        for p in k.params.iter().skip(1).filter(|p| p.name != "...") {
            for b in base.iter().skip(j % 3).step_by(3) {
                f.call(k, &[(None, m), (Some(p.name), b)]);
            }
        }
    }
}

#[test]
fn no_kernel_panics_on_degenerate_input() {
    let scratch = tempfile::tempdir().unwrap();
    // The panics are collected and reported below; the default hook would
    // print each one with a backtrace.
    std::panic::set_hook(Box::new(|info| {
        if let Some(l) = info.location() {
            LAST_PANIC_AT.with(|at| *at.borrow_mut() = l.to_string());
        }
    }));
    let mut f = Fuzzer {
        panics: Vec::new(),
        calls: 0,
        made: Vec::new(),
        // write.csv writes where the fuzz says: not into the repository.
        base_dir: Box::leak(scratch.path().to_path_buf().into_boxed_path()),
    };
    let base = base_pool();
    let forms = formulas(&base);
    let firsts: Vec<Value> = vec![
        num(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
        num(&[]),
        mat(4, 4, 0.0),
        Value::Mat(DMatrix::from_fn(4, 3, |i, j| ((i * 3 + j) % 5) as f64)),
    ];
    let names = registry().names();
    let base_dir = f.base_dir;
    let (base, forms, firsts) = (&base, &forms, &firsts);
    let first = each_kernel(&names, base_dir, |g, k| {
        fuzz_kernel(g, k, base, firsts);
        for form in forms {
            g.call(k, &[(None, form)]);
        }
    });
    // Objects the first round made, for qr.Q, cutree, `$`…, first or second,
    // kept in the order one thread would have made them.
    let mut by_kernel: Vec<std::vec::IntoIter<Value>> = Vec::new();
    for g in first {
        f.panics.extend(g.panics);
        f.calls += g.calls;
        by_kernel.push(g.made.into_iter());
    }
    let mut made: Vec<(Value, usize)> = Vec::new();
    let mut per_class: HashMap<Option<String>, usize> = HashMap::new();
    while by_kernel.iter().any(|k| k.len() > 0) {
        for v in by_kernel.iter_mut().filter_map(|k| k.next()) {
            let n = per_class.entry(class(&v)).or_default();
            if *n < MADE_PER_CLASS {
                made.push((v, *n));
                *n += 1;
            }
        }
    }
    // interaction() crosses a made object's every component, as R does:
    // millions of labels per call, minutes in all (the base round and
    // tests/vs_r/library5.rs's odd inputs fuzz it).
    let second: Vec<&'static str> = names
        .iter()
        .copied()
        .filter(|n| *n != "interaction")
        .collect();
    let made = &made;
    for g in each_kernel(&second, base_dir, |g, k| fuzz_made(g, k, made, base)) {
        f.panics.extend(g.panics);
        f.calls += g.calls;
    }
    let mut pool = base.to_vec();
    pool.extend(made.iter().map(|(v, _)| v.clone()));
    {
        for x in &pool {
            for i in &pool {
                let r = catch_unwind(AssertUnwindSafe(|| {
                    let _ = index::index(x, &[Some(i.clone())]);
                    let _ = index::index(x, &[None, Some(i.clone())]);
                    let _ = index::index(x, &[Some(i.clone()), None]);
                    let _ = index::index(x, &[Some(i.clone()), Some(i.clone())]);
                    let _ = index::index2(x, i);
                    let _ = index::field(x, "x");
                    let t = type_of(x);
                    let ti = type_of(i);
                    let _ = index::index_type(&t, &[Some(ti.clone())]);
                    let _ = index::index_type(&t, &[None, Some(ti.clone())]);
                    let _ = index::index_type(&t, &[Some(ti.clone()), Some(ti.clone())]);
                    let _ = index::index2_type(&t, &ti);
                }));
                if let Err(p) = r {
                    f.panics.push(Panic {
                        what: "indexing".into(),
                        args: format!("{}[{}]", short(x), short(i)),
                        message: message(&*p),
                    });
                }
            }
        }
    }
    let _ = std::panic::take_hook();
    let report: Vec<String> = f
        .panics
        .iter()
        .map(|p| format!("{}({}): {}", p.what, p.args, p.message))
        .collect();
    assert!(
        report.is_empty(),
        "{} of {} calls panicked:\n{}",
        report.len(),
        f.calls,
        report.join("\n")
    );
}
