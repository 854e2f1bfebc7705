//! The files a workflow reads and writes: what watch mode watches, what a
//! step's cache key hashes, and the dependences files make between steps.
//! `read.csv` reads a file and `write.csv` writes one; a path is known
//! before the run when it is a string literal.

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
    /// Each literal path `write.csv` writes, resolved likewise.
    pub written: Vec<PathBuf>,
    /// Some `write.csv` names its file by an expression.
    pub computed_written: bool,
    /// Each literal directory `list.files` lists, resolved likewise.
    pub listed: Vec<PathBuf>,
}

/// The name that stands for every name in a directory a workflow lists
/// (`list.files`), in what [`data_files`] gives watch mode.
pub const ANY_NAME: &str = "*";

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

/// Every literal file the workflow reads and none of its steps writes,
/// sorted, each once: the files whose change watch mode answers (a file a
/// run writes itself must not start another run).
pub fn data_files(wf: &Workflow) -> Vec<PathBuf> {
    let base = wf.base_dir();
    let files: Vec<StepFiles> = wf
        .steps
        .iter()
        .map(|s| step_files(&s.body, &base))
        .collect();
    let written: Vec<&PathBuf> = files.iter().flat_map(|f| &f.written).collect();
    let mut out: Vec<PathBuf> = files
        .iter()
        .flat_map(|f| f.paths.iter())
        .filter(|p| !written.contains(p))
        .cloned()
        .collect();
    // A file added to, removed from or changed in a listed directory.
    out.extend(
        files
            .iter()
            .flat_map(|f| &f.listed)
            .map(|d| d.join(ANY_NAME)),
    );
    out.sort();
    out.dedup();
    out
}

/// The argument R matches to formal `name`, which is the `position`-th
/// (0-based) when given by position: by exact name first, else by position
/// among the unnamed ones.
fn file_arg<'a>(args: &'a [crate::workflow::Arg], name: &str, position: usize) -> Option<&'a Expr> {
    args.iter()
        .find(|a| a.name.as_deref() == Some(name))
        .or_else(|| {
            let named_before =
                usize::from(position > 0 && args.iter().any(|a| a.name.as_deref() == Some("x")));
            args.iter()
                .filter(|a| a.name.is_none())
                .nth(position - named_before.min(position))
        })
        .map(|a| &a.value)
}

fn visit(e: &Expr, base: &Path, out: &mut StepFiles) {
    if let ExprKind::Call { func, args, .. } = &e.kind {
        if func == "read.csv" {
            // R matches `file` by name first, else it is the first
            // positional argument.
            match file_arg(args, "file", 0).map(|e| &e.kind) {
                Some(ExprKind::Str(s)) => out.paths.push(base.join(s)),
                _ => out.computed = true,
            }
        }
        if func == "list.files" {
            match file_arg(args, "path", 0).map(|e| &e.kind) {
                Some(ExprKind::Str(s)) => out.listed.push(base.join(s)),
                None => out.listed.push(base.to_path_buf()),
                // Which directory only the run will tell: as a file
                // named at run time, the step's value has no key.
                Some(_) => out.computed = true,
            }
        }
        if func == "write.csv" {
            // write.csv(x, file): `file` is the second positional
            // argument, or the first when `x` is named.
            match file_arg(args, "file", 1).map(|e| &e.kind) {
                Some(ExprKind::Str(s)) => out.written.push(base.join(s)),
                _ => out.computed_written = true,
            }
        }
    }
    e.visit_children(&mut |c| visit(c, base, out));
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
    fn written_files_are_the_second_argument() {
        let f = files("write.csv(d, \"out.csv\")");
        assert_eq!(f.written, [Path::new("/d/out.csv")]);
        assert!(f.paths.is_empty());
        let f = files("write.csv(file = \"o.csv\", x = d)");
        assert_eq!(f.written, [Path::new("/d/o.csv")]);
        let f = files("write.csv(x = d, \"p.csv\")");
        assert_eq!(f.written, [Path::new("/d/p.csv")]);
        assert!(files("write.csv(d, f)").computed_written);
    }

    #[test]
    fn a_computed_path_is_marked() {
        let f = files("read.csv(paste(\"a\", \".csv\"))");
        assert!(f.paths.is_empty());
        assert!(f.computed);
        assert_eq!(files("mean(x)"), StepFiles::default());
    }
}
