//! The history store: every run, every task's predicted and measured time,
//! every function's model, and the machine's calibration (communication
//! and speed), in one SQLite file (rusqlite, bundled).
//!
//! Two flowcast processes may share it: it is opened in WAL mode (readers
//! never block the writer) with a busy timeout (writers wait for each other
//! instead of failing). A run's rows are written in one transaction, taken
//! with the write lock up front, so a process killed mid-write leaves the
//! store as it was before that run.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, ErrorCode, OptionalExtension, TransactionBehavior};

use crate::sched::Comm;

/// How long a writer waits for another process's transaction.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The schema this code writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    workflow TEXT NOT NULL,
    path TEXT NOT NULL,
    scheduler TEXT NOT NULL,
    processors INTEGER NOT NULL,
    started_at REAL NOT NULL,
    predicted_makespan REAL,
    actual_makespan REAL
);
CREATE TABLE IF NOT EXISTS tasks (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step TEXT NOT NULL,
    function TEXT NOT NULL,
    features TEXT NOT NULL,
    kind TEXT NOT NULL,
    iterations INTEGER,
    predicted REAL,
    actual REAL,
    worker INTEGER,
    start REAL,
    end REAL,
    model TEXT,
    observed REAL,
    PRIMARY KEY (run_id, step)
);
CREATE INDEX IF NOT EXISTS tasks_by_model ON tasks(model, run_id);
CREATE TABLE IF NOT EXISTS models (
    function TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS calibration (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    latency REAL NOT NULL,
    per_byte REAL NOT NULL,
    measured_at REAL NOT NULL
);
";

/// The machine's speed, for the cost models' priors (seconds per op of
/// `kernels::work`). Added after schema 1 shipped, as [`CHARTS`] was: older
/// stores gain it on open, older flowcasts ignore it.
const SPEED: &str = "
CREATE TABLE IF NOT EXISTS speed (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seconds_per_op REAL NOT NULL,
    measured_at REAL NOT NULL
);
";

/// Each run's Gantt chart (plan and run, loop blocks included) as the JSON
/// of `export::Gantt`, so a past run can be exported as it was shown. Added
/// after schema 1 shipped: created on open, so stores written before it
/// gain it and stay readable by older flowcasts (which ignore it); runs
/// recorded without a chart simply have no row.
const CHARTS: &str = "
CREATE TABLE IF NOT EXISTS charts (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    chart TEXT NOT NULL
);
";

/// How each run ended: `done`, `failed` or `cancelled` (by a save in
/// watch mode, Ctrl-C, or quitting the UI). Added after schema 1 shipped,
/// as [`CHARTS`] was: a run recorded without a row here ended `failed` when
/// one of its tasks has no time, else `done` (see [`History::run_states`]).
const RUN_STATES: &str = "
CREATE TABLE IF NOT EXISTS run_states (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    state TEXT NOT NULL
);
";

/// What went wrong with the history store; always names the file.
#[derive(Debug)]
pub struct HistoryError {
    pub path: PathBuf,
    pub kind: HistoryErrorKind,
}

#[derive(Debug)]
pub enum HistoryErrorKind {
    /// The file exists but is not an SQLite database.
    NotADatabase,
    /// Written by a newer flowcast.
    NewerSchema(i64),
    /// Another process held the store longer than [`BUSY_TIMEOUT`].
    Busy,
    Io(std::io::Error),
    Sqlite(rusqlite::Error),
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path.display();
        match &self.kind {
            HistoryErrorKind::NotADatabase => write!(
                f,
                "history store {p}: the file is not a flowcast history database \
                 (move it away, or pass another --history PATH)"
            ),
            HistoryErrorKind::NewerSchema(v) => write!(
                f,
                "history store {p}: written by a newer flowcast (schema {v}, this one reads {SCHEMA_VERSION})"
            ),
            HistoryErrorKind::Busy => write!(
                f,
                "history store {p}: still locked by another flowcast process after {} s",
                BUSY_TIMEOUT.as_secs()
            ),
            HistoryErrorKind::Io(e) => write!(f, "history store {p}: {e}"),
            HistoryErrorKind::Sqlite(e) => write!(f, "history store {p}: {e}"),
        }
    }
}

impl std::error::Error for HistoryError {}

/// One task of a run, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskRecord {
    pub step: String,
    pub function: String,
    pub features: Vec<f64>,
    /// `data`, `call` or `loop`.
    pub kind: String,
    pub iterations: Option<u64>,
    pub predicted: Option<f64>,
    /// Measured work seconds (see `exec::StepOutcome::work`); `None` if it
    /// failed or was skipped.
    pub actual: Option<f64>,
    pub worker: Option<u64>,
    /// Seconds since the run started.
    pub start: Option<f64>,
    pub end: Option<f64>,
    /// The model this task trains (see [`super::model_key`]) and the seconds
    /// it contributes (per iteration for a loop); `None` when it trains none.
    pub model: Option<String>,
    pub observed: Option<f64>,
}

/// One run, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRecord {
    /// Assigned by the store; ignored by [`History::record_run`].
    pub id: i64,
    pub workflow: String,
    pub path: String,
    pub scheduler: String,
    pub processors: u64,
    /// Seconds since the Unix epoch.
    pub started_at: f64,
    pub predicted_makespan: Option<f64>,
    pub actual_makespan: Option<f64>,
    pub tasks: Vec<TaskRecord>,
}

/// An open history store.
pub struct History {
    conn: Connection,
    path: PathBuf,
}

/// `$XDG_DATA_HOME/flowcast/history.sqlite`, else
/// `~/.local/share/flowcast/history.sqlite`; `None` without a home.
pub fn default_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    Some(base.join("flowcast").join("history.sqlite"))
}

impl History {
    /// Opens (creating if needed) the store at `path`, its directory too.
    pub fn open(path: impl AsRef<Path>) -> Result<History, HistoryError> {
        let path = path.as_ref().to_path_buf();
        let err = |kind| HistoryError {
            path: path.clone(),
            kind,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| err(HistoryErrorKind::Io(e)))?;
        }
        let conn = Connection::open(&path).map_err(|e| err(classify(e)))?;
        let mut h = History { conn, path };
        // SQLite answers some lock conflicts at once instead of waiting
        // (several processes turning a new file to WAL together): they
        // clear as soon as the other process is done, so try again.
        let started = std::time::Instant::now();
        let version = loop {
            let opened = h.init().and_then(|()| {
                h.conn
                    .pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0))
            });
            match opened {
                Ok(v) => break v,
                Err(e) if is_busy(&e) && started.elapsed() < BUSY_TIMEOUT => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(h.error(e)),
            }
        };
        if version > SCHEMA_VERSION {
            return Err(h.err(HistoryErrorKind::NewerSchema(version)));
        }
        Ok(h)
    }

    /// Opens the store at [`default_path`].
    pub fn open_default() -> Result<History, HistoryError> {
        let path = default_path().ok_or_else(|| HistoryError {
            path: PathBuf::from("~/.local/share/flowcast/history.sqlite"),
            kind: HistoryErrorKind::Io(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no home directory: pass --history PATH",
            )),
        })?;
        History::open(path)
    }

    fn init(&mut self) -> rusqlite::Result<()> {
        self.conn.busy_timeout(BUSY_TIMEOUT)?;
        // Reading the journal mode is the first access to the file: a file
        // that is not a database fails here.
        let _mode: String = self
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        self.conn.pragma_update(None, "foreign_keys", true)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if version <= SCHEMA_VERSION {
            tx.execute_batch(SCHEMA)?;
            tx.execute_batch(CHARTS)?;
            tx.execute_batch(SPEED)?;
            tx.execute_batch(RUN_STATES)?;
            if version < SCHEMA_VERSION {
                tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            }
        }
        tx.commit()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self, kind: HistoryErrorKind) -> HistoryError {
        HistoryError {
            path: self.path.clone(),
            kind,
        }
    }

    fn error(&self, e: rusqlite::Error) -> HistoryError {
        self.err(classify(e))
    }

    /// Stores a run and its tasks in one transaction; returns the run's id.
    pub fn record_run(&mut self, run: &RunRecord) -> Result<i64, HistoryError> {
        self.record_run_hooked(run, &mut || {})
    }

    /// [`History::record_run`], calling `before_commit` once every row is
    /// written and before the commit: for crash tests.
    #[doc(hidden)]
    pub fn record_run_hooked(
        &mut self,
        run: &RunRecord,
        before_commit: &mut dyn FnMut(),
    ) -> Result<i64, HistoryError> {
        let result = (|| -> rusqlite::Result<i64> {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT INTO runs (workflow, path, scheduler, processors, started_at,
                     predicted_makespan, actual_makespan)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    run.workflow,
                    run.path,
                    run.scheduler,
                    run.processors as i64,
                    run.started_at,
                    run.predicted_makespan,
                    run.actual_makespan
                ],
            )?;
            let id = tx.last_insert_rowid();
            {
                let mut ins = tx.prepare(
                    "INSERT INTO tasks (run_id, step, function, features, kind, iterations,
                         predicted, actual, worker, start, end, model, observed)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                )?;
                for t in &run.tasks {
                    ins.execute(params![
                        id,
                        t.step,
                        t.function,
                        features_json(&t.features),
                        t.kind,
                        t.iterations.map(|n| n as i64),
                        finite(t.predicted),
                        finite(t.actual),
                        t.worker.map(|w| w as i64),
                        finite(t.start),
                        finite(t.end),
                        t.model,
                        finite(t.observed),
                    ])?;
                }
            }
            before_commit();
            tx.commit()?;
            Ok(id)
        })();
        result.map_err(|e| self.error(e))
    }

    /// Runs, newest first, of one workflow or of all; without their tasks.
    pub fn runs(&self, workflow: Option<&str>) -> Result<Vec<RunRecord>, HistoryError> {
        let q = || -> rusqlite::Result<Vec<RunRecord>> {
            let mut st = self.conn.prepare(
                "SELECT id, workflow, path, scheduler, processors, started_at,
                        predicted_makespan, actual_makespan
                 FROM runs WHERE ?1 IS NULL OR workflow = ?1 ORDER BY id DESC",
            )?;
            let rows = st.query_map(params![workflow], |r| {
                Ok(RunRecord {
                    id: r.get(0)?,
                    workflow: r.get(1)?,
                    path: r.get(2)?,
                    scheduler: r.get(3)?,
                    processors: r.get::<_, i64>(4)?.max(0) as u64,
                    started_at: r.get(5)?,
                    predicted_makespan: r.get(6)?,
                    actual_makespan: r.get(7)?,
                    tasks: Vec::new(),
                })
            })?;
            rows.collect()
        };
        q().map_err(|e| self.error(e))
    }

    /// One run with its tasks.
    pub fn run(&self, id: i64) -> Result<Option<RunRecord>, HistoryError> {
        let Some(mut run) = self.runs(None)?.into_iter().find(|r| r.id == id) else {
            return Ok(None);
        };
        run.tasks = self.tasks(id)?;
        Ok(Some(run))
    }

    /// A run's tasks, in the order they were recorded.
    pub fn tasks(&self, run_id: i64) -> Result<Vec<TaskRecord>, HistoryError> {
        let q = || -> rusqlite::Result<Vec<TaskRecord>> {
            let mut st = self.conn.prepare(
                "SELECT step, function, features, kind, iterations, predicted, actual,
                        worker, start, end, model, observed
                 FROM tasks WHERE run_id = ?1 ORDER BY rowid",
            )?;
            let rows = st.query_map(params![run_id], |r| {
                Ok(TaskRecord {
                    step: r.get(0)?,
                    function: r.get(1)?,
                    features: parse_features(&r.get::<_, String>(2)?),
                    kind: r.get(3)?,
                    iterations: r.get::<_, Option<i64>>(4)?.map(|n| n.max(0) as u64),
                    predicted: r.get(5)?,
                    actual: r.get(6)?,
                    worker: r.get::<_, Option<i64>>(7)?.map(|n| n.max(0) as u64),
                    start: r.get(8)?,
                    end: r.get(9)?,
                    model: r.get(10)?,
                    observed: r.get(11)?,
                })
            })?;
            rows.collect()
        };
        q().map_err(|e| self.error(e))
    }

    /// The `limit` most recent observations of one model: (features,
    /// seconds), most recent first.
    pub fn observations(
        &self,
        model: &str,
        limit: usize,
    ) -> Result<Vec<(Vec<f64>, f64)>, HistoryError> {
        let q = || -> rusqlite::Result<Vec<(Vec<f64>, f64)>> {
            let mut st = self.conn.prepare(
                "SELECT features, observed FROM tasks
                 WHERE model = ?1 AND observed IS NOT NULL
                 ORDER BY run_id DESC, rowid DESC LIMIT ?2",
            )?;
            let rows = st.query_map(params![model, limit as i64], |r| {
                Ok((parse_features(&r.get::<_, String>(0)?), r.get(1)?))
            })?;
            rows.collect()
        };
        q().map_err(|e| self.error(e))
    }

    /// Every model key with at least one observation.
    pub fn observed_models(&self) -> Result<Vec<String>, HistoryError> {
        let q = || -> rusqlite::Result<Vec<String>> {
            let mut st = self.conn.prepare(
                "SELECT DISTINCT model FROM tasks WHERE model IS NOT NULL AND observed IS NOT NULL
                 ORDER BY model",
            )?;
            let rows = st.query_map([], |r| r.get(0))?;
            rows.collect()
        };
        q().map_err(|e| self.error(e))
    }

    pub fn save_model(&self, function: &str, state: &str) -> Result<(), HistoryError> {
        self.save_models(&[(function.to_string(), state.to_string())])
    }

    /// Saves several models' states in one transaction.
    pub fn save_models(&self, models: &[(String, String)]) -> Result<(), HistoryError> {
        let q = || -> rusqlite::Result<()> {
            let tx = self.conn.unchecked_transaction()?;
            {
                let mut st = tx.prepare(
                    "INSERT INTO models (function, state, updated_at) VALUES (?1, ?2, ?3)
                     ON CONFLICT(function) DO UPDATE SET state = ?2, updated_at = ?3",
                )?;
                for (f, s) in models {
                    st.execute(params![f, s, now()])?;
                }
            }
            tx.commit()
        };
        q().map_err(|e| self.error(e))
    }

    pub fn load_model(&self, function: &str) -> Result<Option<String>, HistoryError> {
        self.conn
            .query_row(
                "SELECT state FROM models WHERE function = ?1",
                params![function],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Every saved model: (function, state).
    pub fn load_models(&self) -> Result<Vec<(String, String)>, HistoryError> {
        let q = || -> rusqlite::Result<Vec<(String, String)>> {
            let mut st = self
                .conn
                .prepare("SELECT function, state FROM models ORDER BY function")?;
            let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect()
        };
        q().map_err(|e| self.error(e))
    }

    pub fn save_comm(&self, comm: &Comm) -> Result<(), HistoryError> {
        self.conn
            .execute(
                "INSERT INTO calibration (id, latency, per_byte, measured_at) VALUES (1, ?1, ?2, ?3)
                 ON CONFLICT(id) DO UPDATE SET latency = ?1, per_byte = ?2, measured_at = ?3",
                params![comm.latency, comm.per_byte, now()],
            )
            .map(|_| ())
            .map_err(|e| self.error(e))
    }

    /// The stored calibration, if `flowcast calibrate` ever ran.
    pub fn load_comm(&self) -> Result<Option<Comm>, HistoryError> {
        self.conn
            .query_row(
                "SELECT latency, per_byte FROM calibration WHERE id = 1",
                [],
                |r| {
                    Ok(Comm {
                        latency: r.get(0)?,
                        per_byte: r.get(1)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    pub fn save_speed(&self, seconds_per_op: f64) -> Result<(), HistoryError> {
        self.conn
            .execute(
                "INSERT INTO speed (id, seconds_per_op, measured_at) VALUES (1, ?1, ?2)
                 ON CONFLICT(id) DO UPDATE SET seconds_per_op = ?1, measured_at = ?2",
                params![seconds_per_op, now()],
            )
            .map(|_| ())
            .map_err(|e| self.error(e))
    }

    /// The stored seconds per op, if it was ever measured here.
    pub fn load_speed(&self) -> Result<Option<f64>, HistoryError> {
        self.conn
            .query_row("SELECT seconds_per_op FROM speed WHERE id = 1", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Stores (or replaces) a run's chart, as JSON.
    pub fn save_chart(&self, run_id: i64, chart: &str) -> Result<(), HistoryError> {
        self.conn
            .execute(
                "INSERT INTO charts (run_id, chart) VALUES (?1, ?2)
                 ON CONFLICT(run_id) DO UPDATE SET chart = ?2",
                params![run_id, chart],
            )
            .map(|_| ())
            .map_err(|e| self.error(e))
    }

    /// A run's chart as stored by [`History::save_chart`], if any.
    pub fn load_chart(&self, run_id: i64) -> Result<Option<String>, HistoryError> {
        self.conn
            .query_row(
                "SELECT chart FROM charts WHERE run_id = ?1",
                params![run_id],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Stores how run `run_id` ended (see [`RUN_STATES`]).
    pub fn save_run_state(&self, run_id: i64, state: &str) -> Result<(), HistoryError> {
        self.conn
            .execute(
                "INSERT INTO run_states (run_id, state) VALUES (?1, ?2)
                 ON CONFLICT(run_id) DO UPDATE SET state = ?2",
                params![run_id, state],
            )
            .map(|_| ())
            .map_err(|e| self.error(e))
    }

    /// How every run ended, by id: as stored, else (runs recorded before
    /// states were) `failed` when a task has no measured time, else `done`.
    pub fn run_states(&self) -> Result<HashMap<i64, String>, HistoryError> {
        let q = || -> rusqlite::Result<HashMap<i64, String>> {
            let mut st = self.conn.prepare(
                "SELECT runs.id, COALESCE(run_states.state,
                     CASE WHEN EXISTS (SELECT 1 FROM tasks
                                       WHERE tasks.run_id = runs.id AND tasks.actual IS NULL)
                          THEN 'failed' ELSE 'done' END)
                 FROM runs LEFT JOIN run_states ON run_states.run_id = runs.id",
            )?;
            let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect()
        };
        q().map_err(|e| self.error(e))
    }

    /// SQLite's own consistency check: `true` when it reports "ok".
    pub fn integrity_check(&self) -> Result<bool, HistoryError> {
        self.conn
            .query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
            .map(|s| s == "ok")
            .map_err(|e| self.error(e))
    }
}

/// Seconds since the Unix epoch.
pub fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}

fn classify(e: rusqlite::Error) -> HistoryErrorKind {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => HistoryErrorKind::NotADatabase,
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => HistoryErrorKind::Busy,
        _ => HistoryErrorKind::Sqlite(e),
    }
}

/// SQLite stores NaN as NULL anyway; say so explicitly.
fn finite(x: Option<f64>) -> Option<f64> {
    x.filter(|v| v.is_finite())
}

fn features_json(x: &[f64]) -> String {
    let clean: Vec<f64> = x
        .iter()
        .map(|&v| if v.is_finite() { v } else { 0.0 })
        .collect();
    serde_json::to_string(&clean).unwrap_or_else(|_| "[]".into())
}

fn parse_features(s: &str) -> Vec<f64> {
    serde_json::from_str(s).unwrap_or_default()
}
