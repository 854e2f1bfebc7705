//! The TOML layer: `[workflow]` settings and `[steps]`, with every key and
//! value checked and every error placed at the offending text.

use std::collections::HashSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::diagnostic::{Diagnostic, SourceFile, Span};

use super::ast::{Expr, Loop, Step, StepBody, Workflow};
use super::names::{name_problem, suggest};
use super::parser::{parse_expr, parse_loop_header};
use super::text_map::{decode_toml_string, TextMap};

/// The most workers a plan or a run may have. Far more than one machine's
/// cores (a plan for 64 workers on 2 cores is a simulation worth having),
/// and few enough that planning stays quick and a worker table never asks
/// for more memory than exists (`-p 4294967296` once aborted the process).
pub const MAX_PROCESSORS: usize = 4096;

/// The schedulers `[workflow] scheduler` may name.
pub const SCHEDULERS: &[&str] = &["emcp", "mcp", "baseline", "dynamic", "ideal"];

const TOP_KEYS: &[&str] = &["workflow", "steps"];
const WORKFLOW_KEYS: &[&str] = &["name", "seed", "processors", "scheduler", "out", "m"];
const LOOP_KEYS: &[&str] = &["for", "do"];

type Key<'i> = Spanned<std::borrow::Cow<'i, str>>;
type Val<'i> = Spanned<DeValue<'i>>;

/// The line (from 1) of the first `key = ...` before byte `before`, bare
/// or quoted: where the other definition of a duplicate key stands.
fn first_definition(text: &str, key: &str, before: usize) -> Option<usize> {
    let key = key.trim_matches(|c| c == '"' || c == '\'');
    text.get(..before)?
        .lines()
        .position(|line| {
            let line = line.trim_start();
            [key.to_string(), format!("\"{key}\""), format!("'{key}'")]
                .iter()
                .any(|k| {
                    line.strip_prefix(k.as_str())
                        .is_some_and(|rest| rest.trim_start().starts_with('='))
                })
        })
        .map(|i| i + 1)
}

/// The name at `start` when it is a syntactic R name that TOML refuses as
/// a bare key (one with a letter outside ASCII), read up to the `=`.
fn unquoted_r_name(text: &str, start: usize) -> Option<&str> {
    let rest = text.get(start..)?;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    if !text[line_start..start].trim().is_empty() {
        return None;
    }
    let end = rest.find(|c: char| c == '=' || c == '\n' || c.is_whitespace())?;
    let name = &rest[..end];
    (!name.is_ascii() && super::names::is_syntactic(name)).then_some(name)
}

pub fn parse(file: SourceFile) -> Result<Workflow, Vec<Diagnostic>> {
    let text = file.text.clone();
    let (root, errors) = DeTable::parse_recoverable(&text);
    // Only the first TOML error: those after it are mostly the recovery's
    // echoes of the same mistake (an unterminated string makes the next line
    // look like a bad key).
    if let Some(e) = errors.iter().min_by_key(|e| e.span().map(|r| r.start)) {
        let span = e.span().map(|r| span_of(&r));
        let key = span.and_then(|s| text.get(s.start..s.end)).unwrap_or("");
        let message = if e.message().trim() == "duplicate key" && !key.is_empty() {
            // In `[steps]` this is R's "redefining a name".
            let first = span
                .and_then(|s| first_definition(&text, key, s.start))
                .map(|line| format!(" (`{key}` is first defined on line {line})"))
                .unwrap_or_default();
            format!("duplicate key `{key}`: each step and setting can be defined only once{first}")
        } else if let Some(name) = span.and_then(|s| unquoted_r_name(&text, s.start)) {
            // `β = "..."`: R takes any letter in a name, TOML's bare keys
            // only ASCII ones.
            format!(
                "invalid TOML: a bare key takes only ASCII letters, digits, `-` and `_`; \
                 quote a step name with other letters: `\"{name}\" = ...`"
            )
        } else {
            format!("invalid TOML: {}", e.message().trim())
        };
        return Err(vec![Diagnostic::new(&file, span, message)]);
    }
    let mut cx = Cx {
        file: &file,
        diags: Vec::new(),
    };
    let mut wf = Workflow {
        name: file
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "workflow".to_string()),
        seed: None,
        processors: None,
        scheduler: None,
        m: None,
        out: None,
        steps: Vec::new(),
        functions: Vec::new(),
        file: file.clone(),
    };
    let mut saw_steps = false;
    for (key, value) in root.get_ref().iter() {
        match key.get_ref().as_ref() {
            "workflow" => {
                if let Some(table) = cx.table(key, value, "[workflow]") {
                    cx.settings(table, &mut wf);
                }
            }
            "steps" => {
                saw_steps = true;
                if let Some(table) = cx.table(key, value, "[steps]") {
                    if table.is_empty() {
                        cx.error(
                            span_of(&key.span()),
                            "`[steps]` is empty: a workflow needs at least one step",
                        );
                    }
                    wf.steps = cx.steps(table);
                }
            }
            _ => cx.unknown_key(key, TOP_KEYS, None),
        }
    }
    if !saw_steps {
        cx.diags.push(Diagnostic::new(
            &file,
            None,
            "missing `[steps]`: a workflow needs at least one step",
        ));
    }
    if cx.diags.is_empty() {
        if let Err(d) = super::returns::rewrite(&file, &mut wf.steps) {
            cx.diags = d;
        }
    }
    if cx.diags.is_empty() {
        match super::functions::inline(&file, &mut wf.steps) {
            Ok(functions) => wf.functions = functions,
            Err(d) => cx.diags = d,
        }
        super::call_values::rewrite(&mut wf.steps);
    }
    if cx.diags.is_empty() {
        Ok(wf)
    } else {
        let mut diags = cx.diags;
        diags.sort_by_key(|d| d.span.map(|s| s.start));
        Err(diags)
    }
}

fn span_of(r: &Range<usize>) -> Span {
    Span::new(r.start, r.end)
}

struct Cx<'f> {
    file: &'f SourceFile,
    diags: Vec<Diagnostic>,
}

impl Cx<'_> {
    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diags
            .push(Diagnostic::new(self.file, Some(span), message));
    }

    fn unknown_key(&mut self, key: &Key<'_>, valid: &[&str], step: Option<&str>) {
        let name = key.get_ref();
        let mut msg = format!("unknown key `{name}`");
        match suggest(name, valid) {
            Some(s) => msg.push_str(&format!("; did you mean `{s}`?")),
            None => msg.push_str(&format!(
                " (expected {})",
                valid
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
        let mut d = Diagnostic::new(self.file, Some(span_of(&key.span())), msg);
        if let Some(step) = step {
            d = d.in_step(step);
        }
        self.diags.push(d);
    }

    fn table<'v, 'i>(
        &mut self,
        key: &Key<'_>,
        value: &'v Val<'i>,
        what: &str,
    ) -> Option<&'v DeTable<'i>> {
        match value.get_ref() {
            DeValue::Table(t) => Some(t),
            other => {
                self.error(
                    span_of(&value.span()),
                    format!(
                        "`{}` must be a table (`{what}`), not {}",
                        key.get_ref(),
                        type_name(other)
                    ),
                );
                None
            }
        }
    }

    fn settings(&mut self, table: &DeTable<'_>, wf: &mut Workflow) {
        for (key, value) in table.iter() {
            let span = span_of(&value.span());
            match key.get_ref().as_ref() {
                "name" | "out" => {
                    let Some(s) = self.string(key, value) else {
                        continue;
                    };
                    if s.trim().is_empty() {
                        self.error(span, format!("`{}` must not be empty", key.get_ref()));
                    } else if key.get_ref() == "out" && s.contains('\0') {
                        // No file system takes a NUL in a path: `check`
                        // passed and `run` failed unlocated, blamed on
                        // `--out`.
                        self.error(span, "`out` must not contain a NUL character (`\\u0000`)");
                    } else if key.get_ref() == "name" {
                        wf.name = s;
                    } else if !stays_inside(Path::new(&s)) {
                        // A shared workflow file must not write where its
                        // reader did not look; `--out` may go anywhere.
                        self.error(
                            span,
                            format!(
                                "`out` must be a directory inside the workflow's own \
                                 (`{s}` leaves it); to write elsewhere, pass --out DIR"
                            ),
                        );
                    } else {
                        wf.out = Some(PathBuf::from(s));
                    }
                }
                "scheduler" => {
                    let Some(s) = self.string(key, value) else {
                        continue;
                    };
                    if SCHEDULERS.contains(&s.as_str()) {
                        wf.scheduler = Some(s);
                    } else {
                        let mut msg = format!(
                            "unknown scheduler `{s}` (expected one of {})",
                            SCHEDULERS.join(", ")
                        );
                        if let Some(near) = suggest(&s, SCHEDULERS) {
                            msg = format!("unknown scheduler `{s}`; did you mean `{near}`?");
                        }
                        self.error(span, msg);
                    }
                }
                "seed" => {
                    wf.seed = self.integer(key, value).and_then(|v| {
                        if i32::try_from(v).is_ok() {
                            Some(v)
                        } else {
                            self.error(
                                span,
                                "`seed` must fit in R's 32-bit integers \
                                 (-2147483648 to 2147483647)",
                            );
                            None
                        }
                    });
                }
                "processors" => {
                    wf.processors =
                        self.integer(key, value)
                            .and_then(|v| match usize::try_from(v) {
                                Ok(p) if p > MAX_PROCESSORS => {
                                    self.error(
                                        span,
                                        format!("`processors` must be at most {}", MAX_PROCESSORS),
                                    );
                                    None
                                }
                                Ok(p) if p > 0 => Some(p),
                                _ => {
                                    self.error(span, "`processors` must be a positive integer");
                                    None
                                }
                            });
                }
                "m" => {
                    wf.m = self
                        .integer(key, value)
                        .and_then(|v| match usize::try_from(v) {
                            Ok(m) if m > 0 => Some(m),
                            _ => {
                                self.error(span, "`m` must be a positive integer");
                                None
                            }
                        });
                }
                _ => self.unknown_key(key, WORKFLOW_KEYS, None),
            }
        }
    }

    fn string(&mut self, key: &Key<'_>, value: &Val<'_>) -> Option<String> {
        match value.get_ref() {
            DeValue::String(s) => Some(s.to_string()),
            other => {
                self.error(
                    span_of(&value.span()),
                    format!(
                        "`{}` must be a string, not {}",
                        key.get_ref(),
                        type_name(other)
                    ),
                );
                None
            }
        }
    }

    fn integer(&mut self, key: &Key<'_>, value: &Val<'_>) -> Option<i64> {
        let span = span_of(&value.span());
        match value.get_ref() {
            DeValue::Integer(i) => {
                let parsed = i64::from_str_radix(i.as_str(), i.radix()).ok();
                if parsed.is_none() {
                    self.error(span, format!("`{}` is too large", key.get_ref()));
                }
                parsed
            }
            other => {
                self.error(
                    span,
                    format!(
                        "`{}` must be an integer, not {}",
                        key.get_ref(),
                        type_name(other)
                    ),
                );
                None
            }
        }
    }

    fn steps(&mut self, table: &DeTable<'_>) -> Vec<Step> {
        let mut steps = Vec::new();
        for (key, value) in table.iter() {
            let name = key.get_ref().to_string();
            let name_span = span_of(&key.span());
            if let Some(problem) = name_problem(&name) {
                self.diags.push(
                    Diagnostic::new(
                        self.file,
                        Some(name_span),
                        format!("invalid step name: {problem}"),
                    )
                    .in_step(&name),
                );
            }
            let body = match value.get_ref() {
                DeValue::String(_) => self.expr(&name, "step", value).map(StepBody::Expr),
                // A dotted key (`p.value = ...`) is a table in TOML, spanning
                // only its first part: R users mean a name with a dot.
                DeValue::Table(t)
                    if value.span() == key.span()
                        && !t.keys().any(|k| LOOP_KEYS.contains(&k.get_ref().as_ref())) =>
                {
                    let (dotted, end) = dotted_key(&name, name_span.end, t);
                    let whole = Span::new(name_span.start, end);
                    self.diags.push(
                        Diagnostic::new(
                            self.file,
                            Some(whole),
                            format!(
                                "TOML reads the dotted key `{dotted}` as a table `{name}`; \
                                 quote a step name that contains dots: `\"{dotted}\" = ...`"
                            ),
                        )
                        .in_step(&name),
                    );
                    None
                }
                DeValue::Table(t) => self.loop_step(&name, value, t).map(StepBody::Loop),
                other => {
                    let hint = match other {
                        DeValue::Integer(_) | DeValue::Float(_) | DeValue::Boolean(_) => {
                            format!(" (write it as a string: `{name} = \"...\"`)")
                        }
                        _ => String::new(),
                    };
                    self.diags.push(
                        Diagnostic::new(
                            self.file,
                            Some(span_of(&value.span())),
                            format!(
                                "a step must be an expression string or a loop \
                                 `{{ for = \"i in 1:N\", do = \"...\" }}`, not {}{hint}",
                                type_name(other)
                            ),
                        )
                        .in_step(&name),
                    );
                    None
                }
            };
            if let Some(body) = body {
                steps.push(Step {
                    name,
                    name_span,
                    body,
                });
            }
        }
        let names: HashSet<&str> = steps.iter().map(|s| s.name.as_str()).collect();
        for step in &steps {
            if let StepBody::Loop(l) = &step.body {
                if names.contains(l.var.as_str()) {
                    self.diags.push(
                        Diagnostic::new(
                            self.file,
                            Some(l.var_span),
                            format!("loop variable `{}` redefines the step `{}`", l.var, l.var),
                        )
                        .in_step(&step.name),
                    );
                }
            }
        }
        steps
    }

    fn loop_step(&mut self, name: &str, value: &Val<'_>, table: &DeTable<'_>) -> Option<Loop> {
        let mut header = None;
        let mut body = None;
        let mut ok = true;
        for (key, v) in table.iter() {
            match key.get_ref().as_ref() {
                "for" => header = Some(v),
                "do" => body = Some(v),
                _ => {
                    self.unknown_key(key, LOOP_KEYS, Some(name));
                    ok = false;
                }
            }
        }
        for (what, v, example) in [
            ("for", header, "for = \"i in 1:N\""),
            ("do", body, "do = \"f(x[i, ])\""),
        ] {
            if v.is_none() {
                self.diags.push(
                    Diagnostic::new(
                        self.file,
                        Some(span_of(&value.span())),
                        format!("loop step `{name}` is missing `{what}` (as in `{example}`)"),
                    )
                    .in_step(name),
                );
                ok = false;
            }
        }
        let header = header.and_then(|h| {
            let (text, map) = self.text(name, "for", h)?;
            parse_loop_header(self.file, &text, &map)
                .map_err(|d| self.diags.push(d.in_step(name)))
                .ok()
        });
        let body = body.and_then(|b| self.expr(name, "do", b));
        let (var, var_span, range) = header?;
        let body = body?;
        ok.then_some(Loop {
            var,
            var_span,
            range,
            body,
        })
    }

    fn expr(&mut self, name: &str, what: &str, value: &Val<'_>) -> Option<Expr> {
        let (text, map) = self.text(name, what, value)?;
        parse_expr(self.file, &text, &map)
            .map_err(|d| self.diags.push(d.in_step(name)))
            .ok()
    }

    /// The decoded string and its map to the file; an error unless `value`
    /// is a string.
    fn text(&mut self, name: &str, what: &str, value: &Val<'_>) -> Option<(String, TextMap)> {
        let span = span_of(&value.span());
        let DeValue::String(s) = value.get_ref() else {
            self.diags.push(
                Diagnostic::new(
                    self.file,
                    Some(span),
                    format!(
                        "`{what}` must be a string, not {}",
                        type_name(value.get_ref())
                    ),
                )
                .in_step(name),
            );
            return None;
        };
        if s.trim().is_empty() {
            let msg = if what == "for" {
                "empty loop header (expected `VAR in RANGE`, as in `i in 1:N`)"
            } else {
                "empty expression"
            };
            self.diags
                .push(Diagnostic::new(self.file, Some(span), msg).in_step(name));
            return None;
        }
        let raw = self.file.text.get(span.start..span.end).unwrap_or("");
        match decode_toml_string(raw, span.start) {
            Some((decoded, map)) if decoded == *s => Some((decoded, map)),
            _ => Some((s.to_string(), TextMap::whole(span))),
        }
    }
}

/// The full text of a dotted key `a.b.c` whose first part is `first` (ending
/// at file offset `end`) and whose value is the implicit table `t`, and the
/// offset where the last part ends.
fn dotted_key(first: &str, mut end: usize, mut t: &DeTable<'_>) -> (String, usize) {
    let mut parts = vec![first.to_string()];
    while let Some((k, v)) = t.iter().next() {
        parts.push(k.get_ref().to_string());
        end = k.span().end;
        match v.get_ref() {
            DeValue::Table(inner) if v.span() == k.span() => t = inner,
            _ => break,
        }
    }
    (parts.join("."), end)
}

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// Whether `path`, taken relative to a directory, names something inside
/// it: not absolute, and no `..` climbs above where it started.
fn stays_inside(path: &Path) -> bool {
    use std::path::Component;
    let mut depth = 0usize;
    for c in path.components() {
        match c {
            Component::Prefix(_) | Component::RootDir => return false,
            Component::CurDir => {}
            Component::ParentDir => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            Component::Normal(_) => depth += 1,
        }
    }
    true
}
