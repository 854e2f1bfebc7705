//! The files a workflow reads: what watch mode watches and what a step's
//! cache key hashes. Only `read.csv` reads files; its path is known before
//! the run when it is a string literal.

use std::path::{Path, PathBuf};

use super::ast::{Expr, ExprKind, StepBody, Workflow};

/// The files one step reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepFiles {
    /// Each literal path, resolved against the workflow's directory, in the
    /// order the step names them.
    pub paths: Vec<PathBuf>,
    /// Some `read.csv` names its file by an expression: which file only the
    /// run will tell.
    pub computed: bool,
}

/// The files `body` reads; relative paths are resolved against `base`.
pub fn step_files(body: &StepBody, base: &Path) -> StepFiles {
    let mut files = StepFiles::default();
    match body {
        StepBody::Expr(e) => visit(e, base, &mut files),
        StepBody::Loop(l) => {
            visit(&l.range, base, &mut files);
            visit(&l.body, base, &mut files);
        }
    }
    files
}

/// Every literal file the workflow reads, sorted, each once.
pub fn data_files(wf: &Workflow) -> Vec<PathBuf> {
    let base = wf.base_dir();
    let mut out: Vec<PathBuf> = wf
        .steps
        .iter()
        .flat_map(|s| step_files(&s.body, &base).paths)
        .collect();
    out.sort();
    out.dedup();
    out
}

fn visit(e: &Expr, base: &Path, out: &mut StepFiles) {
    match &e.kind {
        ExprKind::Call { func, args, .. } => {
            if func == "read.csv" {
                // R matches `file` by name first, else it is the first
                // positional argument.
                let file = args
                    .iter()
                    .find(|a| a.name.as_deref() == Some("file"))
                    .or_else(|| args.iter().find(|a| a.name.is_none()));
                match file.map(|a| &a.value.kind) {
                    Some(ExprKind::Str(s)) => out.paths.push(base.join(s)),
                    _ => out.computed = true,
                }
            }
            args.iter().for_each(|a| visit(&a.value, base, out));
        }
        ExprKind::Unary { expr, .. } => visit(expr, base, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            visit(lhs, base, out);
            visit(rhs, base, out);
        }
        ExprKind::Index {
            target,
            indices,
            drop,
        } => {
            visit(target, base, out);
            indices
                .iter()
                .flatten()
                .chain(drop.as_deref())
                .for_each(|i| visit(i, base, out));
        }
        ExprKind::Index2 {
            target,
            index,
            column,
        } => {
            visit(target, base, out);
            visit(index, base, out);
            if let Some(c) = column {
                visit(c, base, out);
            }
        }
        ExprKind::Field { target, .. } => visit(target, base, out),
        ExprKind::Formula { lhs, rhs } => {
            if let Some(l) = lhs {
                visit(l, base, out);
            }
            visit(rhs, base, out);
        }
        ExprKind::Num(_)
        | ExprKind::Str(_)
        | ExprKind::Bool(_)
        | ExprKind::Null
        | ExprKind::Na
        | ExprKind::Name(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workflow::parse_expr_str;

    fn files(text: &str) -> StepFiles {
        let e = parse_expr_str(text).expect("parses");
        step_files(&StepBody::Expr(e), Path::new("/d"))
    }

    #[test]
    fn literal_paths_by_position_or_name() {
        assert_eq!(files("read.csv(\"a.csv\")").paths, [Path::new("/d/a.csv")]);
        let f = files("colMeans(read.csv(header = TRUE, file = \"b.csv\"))");
        assert_eq!(f.paths, [Path::new("/d/b.csv")]);
        assert!(!f.computed);
    }

    #[test]
    fn a_computed_path_is_marked() {
        let f = files("read.csv(paste(\"a\", \".csv\"))");
        assert!(f.paths.is_empty());
        assert!(f.computed);
        assert_eq!(files("mean(x)"), StepFiles::default());
    }
}
