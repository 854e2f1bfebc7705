//! The bare-DAG format other tools write (DESIGN section 8):
//! `{"tasks":[{"id":"t1","cost":1.5}], "edges":[{"from":"t1","to":"t2","bytes":0}]}`.
//! A task may add `"iterations": N` to make it a divisible do-all loop.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::json;

use super::{Dag, Edge, Node, Schedule};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDag {
    tasks: Vec<RawTask>,
    #[serde(default)]
    edges: Vec<RawEdge>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTask {
    id: serde_json::Value,
    cost: f64,
    #[serde(default)]
    iterations: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEdge {
    from: serde_json::Value,
    to: serde_json::Value,
    #[serde(default)]
    bytes: f64,
}

/// Ids may be strings or numbers; both name a task.
fn id_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Dag {
    /// Parses the bare-DAG format; errors say which task or edge is wrong.
    pub fn from_json(text: &str) -> Result<Dag, String> {
        let raw: RawDag = serde_json::from_str(text).map_err(|e| {
            // serde_json says "... at line L column C"; lead with L:C as
            // every other flowcast error does.
            let msg = e.to_string();
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            if e.line() == 0 {
                msg
            } else {
                format!("{}:{}: {msg}", e.line(), e.column())
            }
        })?;
        let mut index = HashMap::new();
        let mut dag = Dag::default();
        for (i, t) in raw.tasks.iter().enumerate() {
            let id = id_text(&t.id);
            if !t.cost.is_finite() || t.cost < 0.0 {
                return Err(format!(
                    "task `{id}`: cost must be a non-negative number, not {}",
                    t.cost
                ));
            }
            if index.insert(id.clone(), i).is_some() {
                return Err(format!("task `{id}` is defined twice"));
            }
            dag.nodes.push(match t.iterations {
                Some(0) => return Err(format!("task `{id}`: iterations must be at least 1")),
                Some(n) => Node::looped(&id, t.cost, n),
                None => Node::function(&id, t.cost),
            });
        }
        for (k, e) in raw.edges.iter().enumerate() {
            let end = |v: &serde_json::Value| {
                let id = id_text(v);
                index
                    .get(&id)
                    .copied()
                    .ok_or_else(|| format!("edge {k}: no task `{id}`"))
            };
            let (from, to) = (end(&e.from)?, end(&e.to)?);
            if !e.bytes.is_finite() || e.bytes < 0.0 {
                return Err(format!("edge {k}: bytes must be a non-negative number"));
            }
            dag.edges.push(Edge {
                from,
                to,
                bytes: e.bytes,
            });
        }
        if let Some(cycle) = dag.find_cycle() {
            let names: Vec<&str> = cycle.iter().map(|&i| dag.nodes[i].name.as_str()).collect();
            return Err(format!(
                "the edges make a cycle: tasks {} -> {}",
                names.join(" -> "),
                names[0]
            ));
        }
        Ok(dag)
    }
}

impl Schedule {
    /// The schedule as JSON: per item its task id, worker, times and (for
    /// loops) iterations; plus the makespan and the lower bound.
    pub fn to_json(&self, dag: &Dag, scheduler: &str) -> serde_json::Value {
        let items: Vec<serde_json::Value> = self
            .items
            .iter()
            .map(|i| {
                let mut v = json!({
                    "id": dag.nodes[i.node].name,
                    "worker": i.worker,
                    "start": i.start,
                    "end": i.end,
                });
                if let Some(r) = &i.iterations {
                    v["iterations"] = json!([r.start, r.end]);
                }
                if !i.lanes.is_empty() {
                    v["lanes"] = json!(i.lanes);
                }
                v
            })
            .collect();
        json!({
            "scheduler": scheduler,
            "workers": self.workers,
            "makespan": self.makespan(),
            "lower_bound": dag.lower_bound(self.workers),
            "schedule": items,
        })
    }
}

impl Schedule {
    /// The schedule as a table of items (unless `quiet`) and a summary line
    /// with the makespan and the lower bound.
    pub fn write_table(
        &self,
        out: &mut impl std::io::Write,
        dag: &Dag,
        scheduler: &str,
        quiet: bool,
    ) -> std::io::Result<()> {
        if !quiet {
            writeln!(
                out,
                "{:<20} {:>6} {:>12} {:>12}",
                "task", "worker", "start", "end"
            )?;
            for i in &self.items {
                let name = &dag.nodes[i.node].name;
                let name = match &i.iterations {
                    Some(r) => format!("{name}[{}..{}]", r.start + 1, r.end),
                    None => name.clone(),
                };
                writeln!(
                    out,
                    "{name:<20} {:>6} {:>12.4} {:>12.4}",
                    i.worker, i.start, i.end
                )?;
            }
            writeln!(out)?;
        }
        writeln!(
            out,
            "{scheduler} on {} workers: makespan {:.4}, lower bound {:.4}",
            self.workers,
            self.makespan(),
            dag.lower_bound(self.workers)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_format() {
        let dag = Dag::from_json(
            r#"{"tasks":[{"id":"t1","cost":1.5},{"id":2,"cost":2,"iterations":10}],
                "edges":[{"from":"t1","to":2,"bytes":8}]}"#,
        )
        .unwrap();
        assert_eq!(dag.nodes.len(), 2);
        assert_eq!(dag.nodes[1].iterations(), Some(10));
        assert_eq!(
            dag.edges,
            vec![Edge {
                from: 0,
                to: 1,
                bytes: 8.0
            }]
        );
    }

    #[test]
    fn rejects_bad_graphs_with_reasons() {
        let e =
            Dag::from_json(r#"{"tasks":[{"id":"a","cost":1}],"edges":[{"from":"a","to":"b"}]}"#);
        assert!(e.unwrap_err().contains("no task `b`"));
        let e = Dag::from_json(
            r#"{"tasks":[{"id":"a","cost":1},{"id":"b","cost":1}],
                "edges":[{"from":"a","to":"b"},{"from":"b","to":"a"}]}"#,
        );
        assert!(e.unwrap_err().contains("cycle"));
        let e = Dag::from_json(r#"{"tasks":[{"id":"a","cost":-1}]}"#);
        assert!(e.unwrap_err().contains("non-negative"));
    }
}
