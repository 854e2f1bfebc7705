//! `structure(.Data, ...)`: base R's way of setting attributes in one call,
//! for the attributes flowcast holds on a value: `names`, `dim`,
//! `dimnames` (and R's old spellings `.Names`, `.Dim`, `.Dimnames`), and a
//! factor's `levels`. Any other attribute is refused by name.

use super::{opt, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "structure",
    params: &[opt(".Data"), DOTS],
    random: false,
    shape: structure_shape,
    eval: structure_eval,
}];

/// The replacement function that sets attribute `name`, after R's
/// renaming of the specials (`.Dim` is `dim`, …).
fn setter(name: &str) -> Option<&'static str> {
    Some(match name {
        "names" | ".Names" => "names<-",
        "dim" | ".Dim" => "dim<-",
        "dimnames" | ".Dimnames" => "dimnames<-",
        "levels" | ".Label" => "levels<-",
        _ => return None,
    })
}

fn refused(name: &str) -> String {
    format!(
        "structure() sets names, dim, dimnames and levels only: attribute `{name}` is \
         not one a flowcast value can hold"
    )
}

/// R's `structure`: `attributes(.Data) <- c(attributes(.Data), list(...))`,
/// which sets `dim` before the others, then each in the order given.
fn structure_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Some(data) = args.get(".Data") else {
        return Err(KernelError::new(
            "argument \".Data\" is missing, with no default",
        ));
    };
    if matches!(data, Value::Null) {
        ctx.warn(
            "Calling 'structure(NULL, *)' is deprecated, as NULL cannot have attributes.\n  \
             Consider 'structure(list(), *)' instead.",
        );
    }
    let mut attrs: Vec<(&'static str, &Value)> = Vec::new();
    for (name, v) in args.dots() {
        let Some(name) = name.filter(|n| !n.is_empty()) else {
            return Err(KernelError::new("attributes must be named"));
        };
        let f = setter(name).ok_or_else(|| KernelError::new(refused(name)))?;
        attrs.push((f, v));
    }
    // attributes<- sets dim first, so dimnames find the extents they name.
    attrs.sort_by_key(|(f, _)| *f != "dim<-");
    let mut out = data.clone();
    for (f, v) in attrs {
        out = super::registry().call(f, vec![(None, &out), (None, v)], ctx)?;
    }
    Ok(out)
}

fn structure_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mut dims = None;
    for (k, (name, t)) in a.dots().enumerate() {
        let Some(name) = name.filter(|n| !n.is_empty()) else {
            return Err(a.dots_error(k, "attributes must be named"));
        };
        let Some(f) = setter(name) else {
            return Err(a.dots_error(k, refused(name)));
        };
        if f == "dim<-" {
            dims = Some(t);
        }
    }
    let x = a.ty(".Data").cloned().unwrap_or(Type::Any);
    Ok(match dims {
        None => x,
        Some(Type::Num { value: Some(v), .. }) if v.len() == 2 => match x {
            Type::Bool { .. } | Type::BoolMat { .. } => Type::BoolMat {
                rows: Some(v[0] as usize),
                cols: Some(v[1] as usize),
            },
            Type::Num { .. } | Type::Mat { .. } => Type::mat(v[0] as usize, v[1] as usize),
            Type::Str { .. } | Type::StrMat { .. } => {
                Type::str_mat(Some(v[0] as usize), Some(v[1] as usize))
            }
            _ => Type::Any,
        },
        Some(_) => Type::Any,
    })
}
