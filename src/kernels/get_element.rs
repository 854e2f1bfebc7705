//! `getElement(object, name)`: base R's `object[[name, exact = TRUE]]`
//! (flowcast holds no S4 objects, whose slots it would read).

use super::{req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "getElement",
    params: &[req("object"), req("name")],
    random: false,
    shape: get_element_shape,
    eval: get_element_eval,
}];

fn get_element_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let object = args.get("object").unwrap_or(&Value::Null);
    let name = args.get("name").unwrap_or(&Value::Null);
    super::index::index2(object, name)
}

fn get_element_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (Some(x), Some(i)) = (a.ty("object"), a.ty("name")) else {
        return Ok(Type::Any);
    };
    super::index::index2_type(x, i).map_err(|(_, message)| a.error("name", message))
}
