//! Data steps: random draws (`rnorm`, `runif`, `sample`), constructors
//! (`matrix`, `array`, `c`, `seq`, `seq_len`), `read.csv` and `spin`.
//!
//! Each follows R 4.2's semantics and error messages; each shape rule uses
//! the constants it is given (`rnorm(1200 * 1200)` is `num[1440000]`) and
//! leaves unknown dimensions `None`.

mod build;
pub(crate) mod combine;
mod csv;
pub mod list_files;
mod random;
mod rdist;
pub(crate) mod sample;
mod seq;
mod spin;
pub mod write_csv;

pub(super) use combine::combine;
pub(crate) use combine::r_num_to_string;
pub(super) use csv::parse_number;
pub use random::{draws, rnorm1, runif1};
pub(crate) use seq::seq_spaced;

use super::{opt, req, Kernel, KernelError, Param, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "rnorm",
        params: &[req("n"), opt("mean"), opt("sd")],
        random: true,
        shape: random::shape_draws,
        eval: random::eval_rnorm,
    },
    Kernel {
        name: "runif",
        params: &[req("n"), opt("min"), opt("max")],
        random: true,
        shape: random::shape_draws,
        eval: random::eval_runif,
    },
    Kernel {
        name: "sample",
        params: SAMPLE_PARAMS,
        random: true,
        shape: sample::shape_sample,
        eval: sample::eval_sample,
    },
    Kernel {
        name: "sample.int",
        params: &[req("n"), opt("size"), opt("replace"), opt("prob")],
        random: true,
        shape: sample::shape_sample_int,
        eval: sample::eval_sample_int,
    },
    Kernel {
        name: "matrix",
        params: &[
            opt("data"),
            opt("nrow"),
            opt("ncol"),
            opt("byrow"),
            opt("dimnames"),
        ],
        random: false,
        shape: build::shape_matrix,
        eval: build::eval_matrix,
    },
    Kernel {
        name: "array",
        params: &[opt("data"), opt("dim"), opt("dimnames")],
        random: false,
        shape: build::shape_array,
        eval: build::eval_array,
    },
    Kernel {
        name: "c",
        params: &[DOTS],
        random: false,
        shape: combine::shape_c,
        eval: combine::eval_c,
    },
    Kernel {
        name: "unlist",
        params: &[req("x"), opt("recursive"), opt("use.names")],
        random: false,
        shape: combine::shape_unlist,
        eval: combine::eval_unlist,
    },
    Kernel {
        name: "seq",
        params: &[
            opt("from"),
            opt("to"),
            opt("by"),
            opt("length.out"),
            opt("along.with"),
        ],
        random: false,
        shape: seq::shape_seq,
        eval: seq::eval_seq,
    },
    // R's primitive behind seq.default: the same sequences.
    Kernel {
        name: "seq.int",
        params: &[
            opt("from"),
            opt("to"),
            opt("by"),
            opt("length.out"),
            opt("along.with"),
            DOTS,
        ],
        random: false,
        shape: seq::shape_seq,
        eval: seq::eval_seq,
    },
    Kernel {
        name: "seq_along",
        params: &[req("along.with")],
        random: false,
        shape: seq::shape_seq_along,
        eval: seq::eval_seq_along,
    },
    Kernel {
        name: "seq_len",
        params: &[req("length.out")],
        random: false,
        shape: seq::shape_seq_len,
        eval: seq::eval_seq_len,
    },
    Kernel {
        name: "numeric",
        params: &[opt("length")],
        random: false,
        shape: seq::shape_vector_of,
        eval: seq::eval_vector_of,
    },
    Kernel {
        name: "double",
        params: &[opt("length")],
        random: false,
        shape: seq::shape_vector_of,
        eval: seq::eval_vector_of,
    },
    Kernel {
        name: "integer",
        params: &[opt("length")],
        random: false,
        shape: seq::shape_vector_of,
        eval: seq::eval_vector_of,
    },
    Kernel {
        name: "logical",
        params: &[opt("length")],
        random: false,
        shape: seq::shape_vector_of,
        eval: seq::eval_vector_of,
    },
    Kernel {
        name: "character",
        params: &[opt("length")],
        random: false,
        shape: seq::shape_vector_of,
        eval: seq::eval_vector_of,
    },
    Kernel {
        name: "read.csv",
        params: &[
            req("file"),
            opt("header"),
            opt("sep"),
            DOTS,
            opt("na.strings"),
            opt("skip"),
            opt("stringsAsFactors"),
        ],
        random: false,
        shape: csv::shape_read_csv,
        eval: csv::eval_read_csv,
    },
    Kernel {
        name: "list",
        params: &[DOTS],
        random: false,
        shape: shape_list,
        eval: eval_list,
    },
    Kernel {
        name: "list.files",
        params: &[
            opt("path"),
            opt("pattern"),
            opt("all.files"),
            opt("full.names"),
            DOTS,
        ],
        random: false,
        shape: list_files::shape_list_files,
        eval: list_files::eval_list_files,
    },
    Kernel {
        name: "write.csv",
        // write.table's formals, in its order: write.csv passes them on.
        params: &[
            req("x"),
            opt("file"),
            opt("append"),
            opt("quote"),
            opt("sep"),
            opt("eol"),
            opt("na"),
            opt("dec"),
            opt("row.names"),
            opt("col.names"),
            opt("qmethod"),
        ],
        random: false,
        shape: write_csv::shape_write_csv,
        eval: write_csv::eval_write_csv,
    },
    Kernel {
        name: "spin",
        params: &[req("seconds")],
        random: false,
        shape: spin::shape_spin,
        eval: spin::eval_spin,
    },
];

/// The generators of `rdist`, with R's formals.
pub(super) static RDIST_KERNELS: &[Kernel] = &[
    rk("rexp", &[req("n"), opt("rate")]),
    rk(
        "rgamma",
        &[req("n"), req("shape"), opt("rate"), opt("scale")],
    ),
    rk(
        "rbeta",
        &[req("n"), req("shape1"), req("shape2"), opt("ncp")],
    ),
    rk("rchisq", &[req("n"), req("df"), opt("ncp")]),
    rk("rt", &[req("n"), req("df"), opt("ncp")]),
    rk("rf", &[req("n"), req("df1"), req("df2"), opt("ncp")]),
    rk("rbinom", &[req("n"), req("size"), req("prob")]),
    rk("rpois", &[req("n"), req("lambda")]),
    rk("rgeom", &[req("n"), req("prob")]),
    rk("rnbinom", &[req("n"), req("size"), opt("prob"), opt("mu")]),
    rk("rhyper", &[req("nn"), req("m"), req("n"), req("k")]),
    rk("rlnorm", &[req("n"), opt("meanlog"), opt("sdlog")]),
    rk("rweibull", &[req("n"), req("shape"), opt("scale")]),
    rk("rcauchy", &[req("n"), opt("location"), opt("scale")]),
    rk("rlogis", &[req("n"), opt("location"), opt("scale")]),
    rk("rwilcox", &[req("nn"), req("m"), req("n")]),
    rk("rsignrank", &[req("nn"), req("n")]),
];

const fn rk(name: &'static str, params: &'static [Param]) -> Kernel {
    Kernel {
        name,
        params,
        random: true,
        shape: rdist::shape,
        eval: rdist::eval,
    }
}

static SAMPLE_PARAMS: &[Param] = &[req("x"), opt("size"), opt("replace"), opt("prob")];

/// A numeric vector of `n` elements, failing like R ("cannot allocate")
/// instead of aborting when `n` is absurd.
fn alloc_num(n: usize) -> Result<Vec<f64>, KernelError> {
    super::alloc::vec_with_capacity(n)
}

/// The numbers of a value for a numeric parameter (`mean`, `sd`, `min`…):
/// numbers and logicals, recycled by the caller.
fn num_param(v: &Value) -> Option<Vec<f64>> {
    v.as_f64_slice().map(|c| c.into_owned())
}

/// The type of a numeric vector of known or unknown length (no value).
fn num_of_len(len: Option<usize>) -> Type {
    Type::Num { len, value: None }
}

/// `list(...)`: the arguments as a generic vector, named when any is
/// (an unnamed one then named `""`, as in R).
/// R's `list(...)`: one element per argument. An unnamed list's elements
/// are typed by what they share (what `[[i]]`, `for` and `lapply` see); a
/// named one's by nothing, since `l[["name"]]` may be any of them or NULL.
fn shape_list(a: &super::Args<Type>, _: &super::ShapeCtx) -> Result<Type, super::ArgError> {
    let named = a.dots().any(|(n, _)| n.is_some());
    let elem = if named {
        Type::Any
    } else {
        a.dots()
            .map(|(_, t)| t.clone())
            .reduce(|x, y| x.join(&y))
            .unwrap_or(Type::Any)
    };
    Ok(Type::List {
        len: Some(a.dots().count()),
        elem: Box::new(elem),
    })
}

fn eval_list(a: &super::Args<&Value>, _: &mut super::Ctx) -> Result<Value, KernelError> {
    let (names, items): (Vec<Option<&str>>, Vec<Value>) =
        a.dots().map(|(n, v)| (n, v.clone())).unzip();
    let named = names.iter().any(Option::is_some);
    Ok(Value::List(super::value::List {
        class: None,
        names: named.then(|| {
            names
                .iter()
                .map(|n| n.unwrap_or_default().to_string())
                .collect()
        }),
        items,
        row_names: None,
    }))
}
