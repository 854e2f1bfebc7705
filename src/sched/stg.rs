//! Kasahara's Standard Task Graph Set format (STG), the public benchmark of
//! multiprocessor scheduling with known optimal schedules:
//!
//! ```text
//! 3            number of real tasks n
//! 0 0 0        id cost npred pred...   (task 0: dummy entry)
//! 1 4 1 0
//! 2 3 1 0
//! 3 5 2 1 2
//! 4 0 1 3      task n+1: dummy exit
//! # comments to the end of the file
//! ```
//!
//! The dummy entry and exit tasks are dropped when they cost nothing (they
//! cannot change a makespan); everything else keeps its STG id as its name.
//! Predecessors may be listed after their successors (the set never does,
//! but nothing requires it); a cycle is an error naming its tasks. A task
//! line of `2·npred` numbers after the count is the set's variant with
//! communication costs (`pred comm pred comm …`); the costs become the
//! edges' bytes.

use std::path::Path;

use super::{Dag, Edge, Node, NodeId};

pub mod generate;

/// One whitespace-separated number and where it starts (1-based).
struct Token<'a> {
    text: &'a str,
    line: usize,
    col: usize,
}

impl Token<'_> {
    fn at(&self) -> String {
        format!("{}:{}", self.line, self.col)
    }

    fn integer(&self, what: &str) -> Result<usize, String> {
        self.text.parse().map_err(|_| {
            format!(
                "{}: {what} must be a non-negative integer, not `{}`",
                self.at(),
                self.text
            )
        })
    }
}

/// A predecessor link as listed: task `from` before task `to`.
struct Pred {
    from: usize,
    to: usize,
    bytes: f64,
    /// Line and column of the predecessor's id, for errors about the link.
    at: (usize, usize),
}

fn tokens(line: &str, line_no: usize) -> impl Iterator<Item = Token<'_>> {
    let mut rest = line;
    let mut offset = 0;
    std::iter::from_fn(move || {
        let skip = rest.len() - rest.trim_start().len();
        rest = &rest[skip..];
        offset += skip;
        if rest.is_empty() {
            return None;
        }
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let t = Token {
            text: &rest[..len],
            line: line_no,
            // Columns count characters, as editors show them.
            col: line[..offset].chars().count() + 1,
        };
        rest = &rest[len..];
        offset += len;
        Some(t)
    })
}

/// Lines that carry data: comments (`#` to the end of the file in the set,
/// but a `#` line anywhere is accepted) and blank lines are skipped.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| {
            let t = l.trim_start();
            !t.is_empty() && !t.starts_with('#')
        })
}

impl Dag {
    /// Parses an STG file; errors say `line:col` and what is wrong there.
    pub fn from_stg<'a>(text: &'a str) -> Result<Dag, String> {
        let mut lines = data_lines(text);
        let Some((line_no, header)) = lines.next() else {
            return Err("empty file: expected the number of tasks on the first line".into());
        };
        let mut head = tokens(header, line_no);
        let first = head.next().ok_or("1:1: expected the number of tasks")?;
        let n = first.integer("the number of tasks")?;
        if let Some(extra) = head.next() {
            return Err(format!(
                "{}: expected only the number of tasks on this line, found `{}`",
                extra.at(),
                extra.text
            ));
        }
        let total = n.checked_add(2).ok_or_else(|| {
            format!(
                "{}: {n} tasks is more than this machine can hold",
                first.at()
            )
        })?;
        let mut costs = Vec::with_capacity(total.min(1 << 24));
        let mut preds: Vec<Pred> = Vec::new();
        for expected in 0..total {
            let Some((line_no, line)) = lines.next() else {
                return Err(format!(
                    "line {}: the file ends after {expected} task lines; \
                     the header promises {total} (n = {n} plus the dummy entry and exit)",
                    text.lines().count() + 1
                ));
            };
            let mut ts = tokens(line, line_no);
            let end = line.chars().count() + 1;
            let field = |t: Option<Token<'a>>, what: &str| {
                t.ok_or_else(|| format!("{line_no}:{end}: task line ends before its {what}"))
            };
            let id_tok = field(ts.next(), "id")?;
            let id = id_tok.integer("a task id")?;
            if id != expected {
                return Err(format!(
                    "{}: expected task {expected} here (tasks are numbered 0..={} in order), found {id}",
                    id_tok.at(),
                    n + 1
                ));
            }
            let cost_tok = field(ts.next(), "cost")?;
            let cost: f64 = cost_tok.text.parse().map_err(|_| {
                format!(
                    "{}: task {id}: cost `{}` is not a number",
                    cost_tok.at(),
                    cost_tok.text
                )
            })?;
            if !cost.is_finite() || cost < 0.0 {
                return Err(format!(
                    "{}: task {id}: cost must be a non-negative number, not {}",
                    cost_tok.at(),
                    cost_tok.text
                ));
            }
            let count_tok = field(ts.next(), "number of predecessors")?;
            let count = count_tok.integer("the number of predecessors")?;
            let rest: Vec<Token> = ts.collect();
            // The set's variant with communication costs lists
            // `pred comm` pairs; the comm cost becomes the edge's bytes.
            let paired = count > 0 && rest.len() == 2 * count;
            if rest.len() != count && !paired {
                return Err(format!(
                    "{}: task {id} says it has {count} predecessors but lists {}",
                    count_tok.at(),
                    rest.len()
                ));
            }
            let step = if paired { 2 } else { 1 };
            for k in (0..rest.len()).step_by(step) {
                let t = &rest[k];
                let pred = t.integer("a predecessor id")?;
                if pred >= total {
                    return Err(format!(
                        "{}: task {id}: predecessor {pred} is out of range (tasks are 0..={})",
                        t.at(),
                        n + 1
                    ));
                }
                if pred == id {
                    return Err(format!(
                        "{}: task {id} lists itself as a predecessor",
                        t.at()
                    ));
                }
                let bytes = match rest.get(k + 1).filter(|_| paired) {
                    None => 0.0,
                    Some(c) => match c.text.parse::<f64>() {
                        Ok(b) if b.is_finite() && b >= 0.0 => b,
                        _ => {
                            return Err(format!(
                                "{}: task {id}: communication cost must be a non-negative number, not `{}`",
                                c.at(),
                                c.text
                            ))
                        }
                    },
                };
                preds.push(Pred {
                    from: pred,
                    to: id,
                    bytes,
                    at: (t.line, t.col),
                });
            }
            costs.push(cost);
        }
        if let Some((line_no, line)) = lines.next() {
            let t = tokens(line, line_no).next().map_or(1, |t| t.col);
            return Err(format!(
                "{line_no}:{t}: unexpected data after the last task ({}); \
                 comments must start with `#`",
                n + 1
            ));
        }
        build(n, &costs, &preds)
    }
}

/// The graph without free dummies: node k is STG task `keep[k]`.
fn build(n: usize, costs: &[f64], preds: &[Pred]) -> Result<Dag, String> {
    let total = n + 2;
    let dummy = |id: usize| (id == 0 || id == n + 1) && costs[id] == 0.0;
    let mut node_of = vec![usize::MAX; total];
    let mut dag = Dag::default();
    for (id, &cost) in costs.iter().enumerate() {
        if !dummy(id) {
            node_of[id] = dag.nodes.len();
            dag.nodes.push(Node::function(&id.to_string(), cost));
        }
    }
    for &Pred {
        from: pred,
        to: task,
        bytes,
        ..
    } in preds
    {
        // An edge touching a free dummy orders nothing: the entry has no
        // predecessors and the exit no successors.
        if !dummy(pred) && !dummy(task) {
            dag.edges.push(Edge {
                from: node_of[pred],
                to: node_of[task],
                bytes,
            });
        }
    }
    if let Some(cycle) = dag.find_cycle() {
        let names: Vec<&str> = cycle.iter().map(|&i| dag.nodes[i].name.as_str()).collect();
        let first = preds
            .iter()
            .find(|e| node_of[e.to] == cycle[0] && node_of[e.from] == cycle[cycle.len() - 1])
            .map_or(String::new(), |e| format!("{}:{}: ", e.at.0, e.at.1));
        return Err(format!(
            "{first}the predecessors make a cycle: tasks {} -> {}",
            names.join(" -> "),
            names[0]
        ));
    }
    Ok(dag)
}

impl Dag {
    /// A cycle as node ids in edge order (each is a predecessor of the next,
    /// the last of the first), or `None` for a DAG.
    pub fn find_cycle(&self) -> Option<Vec<NodeId>> {
        let n = self.nodes.len();
        let (_, indegree) = self.kahn();
        // Every node left has a predecessor left: walking back through them
        // must revisit a node, and the walk from it is a cycle.
        let start = (0..n).find(|&i| indegree[i] > 0)?;
        let preds = self.preds();
        let mut seen = vec![usize::MAX; n]; // position in the walk
        let mut walk = Vec::new();
        let mut at = start;
        while seen[at] == usize::MAX {
            seen[at] = walk.len();
            walk.push(at);
            at = preds[at].iter().find(|e| indegree[e.from] > 0)?.from;
        }
        let mut cycle = walk.split_off(seen[at]);
        cycle.reverse();
        Some(cycle)
    }

    /// Reads a graph file: STG when it ends in `.stg`, JSON when it ends in
    /// `.json`, otherwise JSON when it starts with `{` and STG when not.
    pub fn from_file_text(path: &Path, text: &str) -> Result<Dag, String> {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let dag = if ext.eq_ignore_ascii_case("stg") {
            Dag::from_stg(text)
        } else if ext.eq_ignore_ascii_case("json") || text.trim_start().starts_with('{') {
            Dag::from_json(text)
        } else {
            Dag::from_stg(text).map_err(|e| format!("{e} (read as STG: not JSON nor `.stg`)"))
        }?;
        dag.check_finite_total()?;
        Ok(dag)
    }

    /// Costs that are each finite can add up past the largest double: two
    /// tasks of 1e308 in a chain were scheduled to end at `inf`, printed
    /// as a makespan of `inf` (and `null` in JSON) with 300-digit start
    /// times. No schedule can be told of such a graph.
    pub fn check_finite_total(&self) -> Result<(), String> {
        let costs: f64 = self.nodes.iter().map(|n| n.cost).sum();
        let bytes: f64 = self.edges.iter().map(|e| e.bytes).sum();
        if (costs + bytes).is_finite() {
            Ok(())
        } else {
            Err(format!(
                "the costs add up past the largest number ({:e}): no schedule of them has a finite makespan",
                f64::MAX
            ))
        }
    }
}

#[cfg(test)]
mod tests;
