//! How deep an expression may nest, and the stack a thread needs to walk
//! one that deep.
//!
//! Every pass over an expression recurses on its tree: parsing, shape
//! inference, graph building, printing, evaluation, even `Clone` and
//! `Drop`. Instead of making each of them iterative, the parser refuses a
//! tree higher than [`MAX_DEPTH`], and every thread that walks expressions
//! runs on a stack of [`WALK_STACK`] bytes, sized for that height with
//! room to spare.

use super::ast::Expr;

/// The most operations (operators, calls, indexing) an expression may hold
/// inside one another. R stops near the same place: its evaluation depth
/// limit, `options(expressions =)`, is 5000 by default.
pub const MAX_DEPTH: usize = 5000;

/// Stack for a thread that parses, checks or evaluates expressions. Every
/// command ran a [`MAX_DEPTH`]-high tree in 4 MiB in a debug build; this is
/// eight times that. Only the pages a thread touches are committed, but
/// each worker reserves its stack's address space, which a `ulimit -v`
/// counts.
pub const WALK_STACK: usize = 32 << 20;

/// The height of `e`'s tree, walked without recursion: a tree that holds
/// function bodies may be deeper than the parser allows, and is measured
/// before anything recurses on it.
pub fn height(e: &Expr) -> usize {
    let mut most = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((e, h)) = stack.pop() {
        most = most.max(h);
        e.visit_children(&mut |c| stack.push((c, h + 1)));
    }
    most
}
