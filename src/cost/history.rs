//! The history store: every run, every task's predicted and measured time,
//! every function's model, and the machine's calibration (communication
//! and speed), in one SQLite file (rusqlite, bundled).
//!
//! Two flowcast processes may share it: it is opened in WAL mode (readers
//! never block the writer) with a busy timeout (writers wait for each other
//! instead of failing). A run's rows are written in one transaction, taken
//! with the write lock up front, so a process killed mid-write leaves the
//! store as it was before that run.
//!
//! A process waits for the lock once: when another program holds it past
//! the timeout, later writes give up at once, and a run that could not be
//! recorded is kept in the [`retry`] file beside the store, merged at the
//! next open. Reading commands open the store read-only, so a store they
//! cannot write (a read-only file or directory) can still be read. A store
//! that fails SQLite's `quick_check` is never written to.

pub mod retry;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{
    params, Connection, ErrorCode, OpenFlags, OptionalExtension, Transaction, TransactionBehavior,
};
use serde::{Deserialize, Serialize};

use crate::cost::{Comm, LoopBlock};
use crate::kernels::work::Speed;
use crate::printable::printable;

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

/// The machine's seconds per long-double add (`kernels::work::Work::ld_adds`),
/// measured beside [`SPEED`]. Added after it, as it was: a store without
/// a row prices them as the development machine relates them to the
/// rest.
const LD_SPEED: &str = "
CREATE TABLE IF NOT EXISTS long_double_speed (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seconds_per_add REAL NOT NULL,
    measured_at REAL NOT NULL
);
";

/// The machine's seconds per element a product streams from the cache
/// and fetches from memory (`kernels::work::Work::streamed`), measured
/// beside [`SPEED`]. Added after [`LD_SPEED`], as it was: a store without
/// a row prices them as the development machine relates them to the
/// rest.
const STREAM_SPEED: &str = "
CREATE TABLE IF NOT EXISTS stream_speed (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seconds_per_streamed REAL NOT NULL,
    seconds_per_fetched REAL NOT NULL,
    measured_at REAL NOT NULL
);
";

/// The network between MPI ranks, `l + b·bytes`, as `flowcast calibrate
/// --mpi` measured it with a ping-pong. Added after schema 1 shipped, as
/// [`SPEED`] was.
const NETWORK: &str = "
CREATE TABLE IF NOT EXISTS network (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    latency REAL NOT NULL,
    per_byte REAL NOT NULL,
    measured_at REAL NOT NULL
);
";

/// Each run's Gantt chart (plan and run, loop blocks included) as the JSON
/// of `report::gantt::Gantt`, so a past run can be exported as it was shown. Added
/// after schema 1 shipped: created on open, so stores written before it
/// gain it and stay readable by older flowcasts (which ignore it); runs
/// recorded without a chart simply have no row.
const CHARTS: &str = "
CREATE TABLE IF NOT EXISTS charts (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    chart TEXT NOT NULL
);
";

/// Each loop's blocks of iterations (0-based, half-open) as its workers ran
/// them, with their seconds from the run's start: what a loop's
/// policy is chosen from (`pipeline::loop_policy`). Added after schema 1
/// shipped, as [`CHARTS`] was: runs recorded before it have no rows, and
/// older flowcasts ignore it.
const BLOCKS: &str = "
CREATE TABLE IF NOT EXISTS blocks (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step TEXT NOT NULL,
    iter_start INTEGER NOT NULL,
    iter_end INTEGER NOT NULL,
    start REAL NOT NULL,
    end REAL NOT NULL
);
";

/// The workers each call held at once (more than one for a moldable
/// call run wide), so a later run can tell a time measured on one worker
/// from one converted from a wide run (see `cost::StepTimes::narrow`).
/// Added after schema 1 shipped, as [`CHARTS`] was: calls of runs recorded
/// before it have no row, and their width is unknown.
const WIDTHS: &str = "
CREATE TABLE IF NOT EXISTS widths (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step TEXT NOT NULL,
    width INTEGER NOT NULL
);
";

/// The other workers a call run wide held beside its own (`tasks.worker`),
/// so that a past run's chart draws it across all of them. Added after
/// schema 1 shipped, as [`WIDTHS`] was: runs recorded before it have no
/// rows, and their wide calls are drawn on their own worker.
const LANES: &str = "
CREATE TABLE IF NOT EXISTS lanes (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step TEXT NOT NULL,
    lane INTEGER NOT NULL
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

/// Planning reads a workflow's newest runs and each run's rows by run id:
/// without these, every run of a history thousands of runs long scanned
/// the tables whole. Added after schema 1 shipped; an index changes no
/// row, so older flowcasts read and write such a store as before.
const INDEXES: &str = "
CREATE INDEX IF NOT EXISTS runs_by_workflow ON runs(workflow, id);
CREATE INDEX IF NOT EXISTS blocks_by_run ON blocks(run_id);
CREATE INDEX IF NOT EXISTS widths_by_run ON widths(run_id);
CREATE INDEX IF NOT EXISTS lanes_by_run ON lanes(run_id);
";

/// What went wrong with the history store; always names the file.
#[derive(Debug)]
pub struct HistoryError {
    pub path: PathBuf,
    pub kind: HistoryErrorKind,
}

#[derive(Debug)]
pub enum HistoryErrorKind {
    /// The file exists but is not a flowcast history: not SQLite, or
    /// another program's database.
    NotADatabase,
    /// Written by a newer flowcast.
    NewerSchema(i64),
    /// Another process held the lock longer than this process waits.
    Busy,
    /// Another process held the lock, so the run was written to the retry
    /// file (this path) instead, to be recorded at the next open.
    Kept(PathBuf),
    /// SQLite's `quick_check` found damage (its first complaint).
    Damaged(String),
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
            // Any program may hold an SQLite lock: no use guessing which.
            HistoryErrorKind::Busy => write!(f, "history store {p}: locked by another process"),
            HistoryErrorKind::Kept(retry) => write!(
                f,
                "history store {p}: locked by another process; the run is kept in {} \
                 and will be recorded when the store is next opened",
                retry.display()
            ),
            HistoryErrorKind::Damaged(problem) => write!(
                f,
                "history store {p} is damaged ({problem}); nothing more is written to it \
                 (make a copy, then try `sqlite3 {p} .recover`)"
            ),
            // SQLite quotes a damaged schema's text, control characters
            // and all: shown escaped, as everything read from a file is.
            HistoryErrorKind::Io(e) => {
                write!(f, "history store {p}: {}", printable(&e.to_string()))
            }
            HistoryErrorKind::Sqlite(e) => {
                write!(f, "history store {p}: {}", printable(&e.to_string()))
            }
        }
    }
}

impl std::error::Error for HistoryError {}

/// One task of a run, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// A loop's blocks as its workers ran them (see [`BLOCKS`]); runs kept
    /// for retry by an older flowcast have none.
    #[serde(default)]
    pub blocks: Vec<LoopBlock>,
    /// Workers a call held at once (see [`WIDTHS`]); `None` for other
    /// tasks, calls that did not run, and runs recorded before widths were.
    #[serde(default)]
    pub width: Option<u64>,
    /// The other workers a call run wide held (see [`LANES`]).
    #[serde(default)]
    pub lanes: Vec<u64>,
}

/// One run, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// What tables a database file holds, to tell a flowcast history (every
/// schema since the first has `runs`) and an empty file from another
/// program's database.
struct Tables {
    all: i64,
    runs: bool,
}

impl Tables {
    fn foreign(&self) -> bool {
        self.all > 0 && !self.runs
    }
}

/// An open history store.
pub struct History {
    conn: Connection,
    path: PathBuf,
    /// What `quick_check` found wrong at open, for reading commands to warn
    /// about (a store opened for writing is refused instead).
    damage: Option<String>,
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

/// Refuses a store, or one of the files SQLite keeps beside it, that is
/// not a regular file: opening a FIFO blocks until a writer comes.
fn refuse_special_files(path: &Path) -> std::io::Result<()> {
    crate::regular_file::refuse_special_path(path)?;
    for suffix in ["-wal", "-shm", "-journal"] {
        let mut companion = path.as_os_str().to_owned();
        companion.push(suffix);
        crate::regular_file::refuse_special_path(Path::new(&companion))?;
    }
    Ok(())
}

impl History {
    /// Opens (creating if needed) the store at `path`, its directory too,
    /// for writing. Waits up to [`BUSY_TIMEOUT`] for a lock, once.
    pub fn open(path: impl AsRef<Path>) -> Result<History, HistoryError> {
        History::open_waiting(path, BUSY_TIMEOUT)
    }

    /// [`History::open`], waiting up to `wait` for a lock.
    pub fn open_waiting(path: impl AsRef<Path>, wait: Duration) -> Result<History, HistoryError> {
        let path = path.as_ref().to_path_buf();
        let err = |kind| HistoryError {
            path: path.clone(),
            kind,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| err(HistoryErrorKind::Io(e)))?;
        }
        refuse_special_files(&path).map_err(|e| err(HistoryErrorKind::Io(e)))?;
        let conn = Connection::open(&path).map_err(|e| err(classify(e)))?;
        let mut h = History {
            conn,
            path,
            damage: None,
        };
        // SQLite answers some lock conflicts at once instead of waiting
        // (several processes turning a new file to WAL together): they
        // clear as soon as the other process is done, so try again.
        let started = std::time::Instant::now();
        let version = loop {
            // Checked before `configure`, which would turn another
            // program's database to WAL: it is not ours to change.
            let opened = h
                .conn
                .busy_timeout(wait)
                .and_then(|()| h.tables())
                .and_then(|t| {
                    if t.foreign() {
                        Ok(None)
                    } else {
                        h.configure(wait).and_then(|()| h.user_version()).map(Some)
                    }
                });
            match opened {
                Ok(Some(v)) => break v,
                Ok(None) => return Err(h.err(HistoryErrorKind::NotADatabase)),
                Err(e) if is_busy(&e) && started.elapsed() < wait => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(h.error(e)),
            }
        };
        if version > SCHEMA_VERSION {
            return Err(h.err(HistoryErrorKind::NewerSchema(version)));
        }
        if let Some(problem) = h.quick_check().map_err(|e| h.error(e))? {
            return Err(h.err(HistoryErrorKind::Damaged(problem)));
        }
        // A store already at this schema needs no write lock to open: a
        // lock held elsewhere is then waited for by the run's record only.
        if !h.schema_current().map_err(|e| h.error(e))? {
            loop {
                match h.create_schema() {
                    Ok(()) => break,
                    Err(e) if is_busy(&e) && started.elapsed() < wait => {
                        std::thread::sleep(Duration::from_millis(10));
                    }
                    Err(e) => return Err(h.error(e)),
                }
            }
        }
        h.merge_retry(wait);
        Ok(h)
    }

    /// Opens the store at `path` for reading only: nothing is created or
    /// written, so a read-only file or directory can be read. A missing
    /// store reads as empty. Damage is not an error here: see
    /// [`History::damage`].
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<History, HistoryError> {
        let path = path.as_ref().to_path_buf();
        refuse_special_files(&path).map_err(|e| HistoryError {
            path: path.clone(),
            kind: HistoryErrorKind::Io(e),
        })?;
        let empty = |path: PathBuf| -> Result<History, HistoryError> {
            let conn = Connection::open_in_memory().map_err(|e| HistoryError {
                path: path.clone(),
                kind: classify(e),
            })?;
            let mut h = History {
                conn,
                path,
                damage: None,
            };
            h.create_schema().map_err(|e| h.error(e))?;
            Ok(h)
        };
        if !path.exists() {
            return empty(path);
        }
        let open = |flags: OpenFlags, name: &str| -> rusqlite::Result<History> {
            let conn = Connection::open_with_flags(name, flags)?;
            conn.busy_timeout(BUSY_TIMEOUT)?;
            Ok(History {
                conn,
                path: path.clone(),
                damage: None,
            })
        };
        let read_only = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let name = path.to_string_lossy();
        let first = open(read_only, &name).and_then(|h| h.user_version().map(|v| (h, v)));
        let (mut h, version) = match first {
            Ok(x) => x,
            // A WAL store needs its shared-memory file, which a read-only
            // directory cannot hold: read it as a file nobody changes.
            Err(e) if cannot_open(&e) => open(
                read_only | OpenFlags::SQLITE_OPEN_URI,
                &format!("file:{}?immutable=1", uri_path(&path)),
            )
            .and_then(|h| h.user_version().map(|v| (h, v)))
            .map_err(|e| HistoryError {
                path: path.clone(),
                kind: classify(e),
            })?,
            Err(e) => {
                return Err(HistoryError {
                    path: path.clone(),
                    kind: classify(e),
                })
            }
        };
        if version > SCHEMA_VERSION {
            return Err(h.err(HistoryErrorKind::NewerSchema(version)));
        }
        h.damage = h.quick_check().map_err(|e| h.error(e))?;
        if h.damage.is_none() {
            let tables = h.tables().map_err(|e| h.error(e))?;
            // A file with no tables (`touch h.sqlite`, `mktemp`) is a
            // history nothing was recorded in yet, as a missing one is;
            // another program's database is refused, not read as empty.
            if tables.foreign() {
                return Err(h.err(HistoryErrorKind::NotADatabase));
            }
            if tables.all == 0 {
                return empty(path);
            }
        }
        Ok(h)
    }

    /// Opens the store at [`default_path`].
    pub fn open_default() -> Result<History, HistoryError> {
        History::open(default_location()?)
    }

    /// Opens the store at [`default_path`] read-only.
    pub fn open_default_read_only() -> Result<History, HistoryError> {
        History::open_read_only(default_location()?)
    }

    /// What SQLite's `quick_check` found wrong when a reading command
    /// opened the store; what it reads may be incomplete.
    pub fn damage(&self) -> Option<HistoryError> {
        self.damage
            .clone()
            .map(|d| self.err(HistoryErrorKind::Damaged(d)))
    }

    fn configure(&self, wait: Duration) -> rusqlite::Result<()> {
        self.conn.busy_timeout(wait)?;
        // Reading the journal mode is the first access to the file: a file
        // that is not a database fails here.
        let _mode: String = self
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        self.conn.pragma_update(None, "foreign_keys", true)
    }

    fn tables(&self) -> rusqlite::Result<Tables> {
        self.conn.query_row(
            "SELECT count(*), coalesce(sum(name = 'runs'), 0) FROM sqlite_master
             WHERE type = 'table'",
            [],
            |r| {
                Ok(Tables {
                    all: r.get(0)?,
                    runs: r.get::<_, i64>(1)? > 0,
                })
            },
        )
    }

    fn user_version(&self) -> rusqlite::Result<i64> {
        self.conn
            .pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0))
    }

    /// SQLite's `quick_check`: `None` when it reports "ok", else its first
    /// complaint.
    fn quick_check(&self) -> rusqlite::Result<Option<String>> {
        match self
            .conn
            .query_row("PRAGMA quick_check(1)", [], |r| r.get::<_, String>(0))
        {
            Ok(first) => Ok((first != "ok").then_some(first)),
            // Damage bad enough to stop the check is damage too.
            Err(e) if e.sqlite_error_code() == Some(ErrorCode::DatabaseCorrupt) => {
                Ok(Some(e.to_string()))
            }
            Err(e) => Err(e),
        }
    }

    /// Whether every table and index this code writes exists at this schema.
    fn schema_current(&self) -> rusqlite::Result<bool> {
        let tables: i64 = self.conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN
                 ('runs', 'tasks', 'models', 'calibration', 'charts', 'speed', 'network',
                  'run_states', 'blocks', 'long_double_speed', 'stream_speed', 'widths',
                  'lanes')",
            [],
            |r| r.get(0),
        )?;
        let indexes: i64 = self.conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN
                 ('runs_by_workflow', 'blocks_by_run', 'widths_by_run', 'lanes_by_run')",
            [],
            |r| r.get(0),
        )?;
        Ok(tables == 13 && indexes == 4 && self.user_version()? == SCHEMA_VERSION)
    }

    fn create_schema(&mut self) -> rusqlite::Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if version <= SCHEMA_VERSION {
            tx.execute_batch(SCHEMA)?;
            tx.execute_batch(CHARTS)?;
            tx.execute_batch(SPEED)?;
            tx.execute_batch(LD_SPEED)?;
            tx.execute_batch(STREAM_SPEED)?;
            tx.execute_batch(RUN_STATES)?;
            tx.execute_batch(NETWORK)?;
            tx.execute_batch(BLOCKS)?;
            tx.execute_batch(WIDTHS)?;
            tx.execute_batch(LANES)?;
            tx.execute_batch(INDEXES)?;
            if version < SCHEMA_VERSION {
                tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            }
        }
        tx.commit()
    }

    /// Records the runs other processes kept in the retry file, without
    /// waiting: a store still locked keeps them for the next open.
    fn merge_retry(&mut self, wait: Duration) {
        let Some(claimed) = retry::claim(&self.path) else {
            return;
        };
        let runs = claimed.runs();
        let _ = self.conn.busy_timeout(Duration::ZERO);
        let merged = (|| -> rusqlite::Result<()> {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            for run in &runs {
                insert_run(&tx, run)?;
            }
            tx.commit()
        })();
        let _ = self.conn.busy_timeout(wait);
        match merged {
            Ok(()) => claimed.done(),
            Err(_) => claimed.give_back(),
        }
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

    /// The error for `e`. A lock that was not ours in time is waited for
    /// once: later operations of this process give up at once.
    fn error(&self, e: rusqlite::Error) -> HistoryError {
        if is_busy(&e) {
            let _ = self.conn.busy_timeout(Duration::ZERO);
        }
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
            let id = insert_run(&tx, run)?;
            before_commit();
            tx.commit()?;
            Ok(id)
        })();
        match result {
            Ok(id) => Ok(id),
            // The lock was not ours in time: keep the run for the next open.
            Err(e) if is_busy(&e) => {
                let _ = self.conn.busy_timeout(Duration::ZERO);
                match retry::keep(&self.path, run) {
                    Ok(file) => Err(self.err(HistoryErrorKind::Kept(file))),
                    Err(io) => Err(self.err(HistoryErrorKind::Io(io))),
                }
            }
            Err(e) => Err(self.error(e)),
        }
    }

    /// Runs, newest first, of one workflow or of all; without their tasks.
    pub fn runs(&self, workflow: Option<&str>) -> Result<Vec<RunRecord>, HistoryError> {
        self.select_runs(
            "WHERE ?1 IS NULL OR workflow = ?1 ORDER BY id DESC",
            params![workflow],
        )
    }

    /// The newest `limit` runs of `workflow`, newest first: what planning
    /// reads, by index, so that it costs the same after thousands of runs.
    pub fn recent_runs(
        &self,
        workflow: &str,
        limit: usize,
    ) -> Result<Vec<RunRecord>, HistoryError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.select_runs(
            "WHERE workflow = ?1 ORDER BY id DESC LIMIT ?2",
            params![workflow, limit],
        )
    }

    /// One run with its tasks.
    pub fn run(&self, id: i64) -> Result<Option<RunRecord>, HistoryError> {
        let Some(mut run) = self.select_runs("WHERE id = ?1", params![id])?.pop() else {
            return Ok(None);
        };
        run.tasks = self.tasks(id)?;
        Ok(Some(run))
    }

    fn select_runs(
        &self,
        filter: &str,
        args: &[&dyn rusqlite::ToSql],
    ) -> Result<Vec<RunRecord>, HistoryError> {
        let q = || -> rusqlite::Result<Vec<RunRecord>> {
            let mut st = self.conn.prepare(&format!(
                "SELECT id, workflow, path, scheduler, processors, started_at,
                        predicted_makespan, actual_makespan
                 FROM runs {filter}"
            ))?;
            let rows = st.query_map(args, |r| {
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

    /// A run's tasks, in the order they were recorded.
    pub fn tasks(&self, run_id: i64) -> Result<Vec<TaskRecord>, HistoryError> {
        let q = || -> rusqlite::Result<Vec<TaskRecord>> {
            let mut st = self.conn.prepare(
                "SELECT step, function, features, kind, iterations, predicted, actual,
                        worker, start, end, model, observed
                 FROM tasks WHERE run_id = ?1 ORDER BY rowid",
            )?;
            let mut blocks = self.blocks(run_id)?;
            let widths = self.widths(run_id)?;
            let mut lanes = self.lanes(run_id)?;
            let rows = st.query_map(params![run_id], |r| {
                let step: String = r.get(0)?;
                Ok(TaskRecord {
                    blocks: blocks.remove(&step).unwrap_or_default(),
                    width: widths.get(&step).copied(),
                    lanes: lanes.remove(&step).unwrap_or_default(),
                    step,
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

    /// A run's call widths, by step.
    fn widths(&self, run_id: i64) -> rusqlite::Result<HashMap<String, u64>> {
        let mut st = self
            .conn
            .prepare("SELECT step, width FROM widths WHERE run_id = ?1")?;
        let rows = st.query_map(params![run_id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?.max(1) as u64))
        })?;
        rows.collect()
    }

    /// A run's wide calls' other workers, by step.
    fn lanes(&self, run_id: i64) -> rusqlite::Result<HashMap<String, Vec<u64>>> {
        let mut st = self
            .conn
            .prepare("SELECT step, lane FROM lanes WHERE run_id = ?1 ORDER BY rowid")?;
        let rows = st.query_map(params![run_id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?.max(0) as u64))
        })?;
        let mut out: HashMap<String, Vec<u64>> = HashMap::new();
        for row in rows {
            let (step, lane) = row?;
            out.entry(step).or_default().push(lane);
        }
        Ok(out)
    }

    /// A run's loop blocks, by step, in iteration order.
    fn blocks(&self, run_id: i64) -> rusqlite::Result<HashMap<String, Vec<LoopBlock>>> {
        let mut st = self.conn.prepare(
            "SELECT step, iter_start, iter_end, start, end FROM blocks
             WHERE run_id = ?1 ORDER BY step, iter_start",
        )?;
        let rows = st.query_map(params![run_id], |r| {
            let index =
                |i: usize| -> rusqlite::Result<usize> { Ok(r.get::<_, i64>(i)?.max(0) as usize) };
            Ok((
                r.get::<_, String>(0)?,
                LoopBlock {
                    iterations: index(1)?..index(2)?,
                    start: r.get(3)?,
                    end: r.get(4)?,
                },
            ))
        })?;
        let mut out: HashMap<String, Vec<LoopBlock>> = HashMap::new();
        for row in rows {
            let (step, block) = row?;
            out.entry(step).or_default().push(block);
        }
        Ok(out)
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
        self.save_calibration("calibration", comm.latency, comm.per_byte)
    }

    /// The stored calibration, if `flowcast calibrate` ever ran.
    pub fn load_comm(&self) -> Result<Option<Comm>, HistoryError> {
        Ok(self
            .load_calibration("calibration")?
            .map(|(l, b)| Comm::local(l, b)))
    }

    /// Stores the network between MPI ranks, `l` and `b`, as measured by
    /// `flowcast calibrate --mpi`.
    pub fn save_network(&self, latency: f64, per_byte: f64) -> Result<(), HistoryError> {
        self.save_calibration("network", latency, per_byte)
    }

    /// The stored network between MPI ranks, `(l, b)`.
    pub fn load_network(&self) -> Result<Option<(f64, f64)>, HistoryError> {
        self.load_calibration("network")
    }

    /// `table` is `calibration` or `network`, which have the same columns.
    fn save_calibration(
        &self,
        table: &str,
        latency: f64,
        per_byte: f64,
    ) -> Result<(), HistoryError> {
        self.conn
            .execute(
                &format!(
                    "INSERT INTO {table} (id, latency, per_byte, measured_at) VALUES (1, ?1, ?2, ?3)
                     ON CONFLICT(id) DO UPDATE SET latency = ?1, per_byte = ?2, measured_at = ?3"
                ),
                params![latency, per_byte, now()],
            )
            .map(|_| ())
            .map_err(|e| self.error(e))
    }

    fn load_calibration(&self, table: &str) -> Result<Option<(f64, f64)>, HistoryError> {
        self.conn
            .query_row(
                &format!("SELECT latency, per_byte FROM {table} WHERE id = 1"),
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    pub fn save_speed(&self, speed: Speed) -> Result<(), HistoryError> {
        (|| {
            let at = now();
            self.conn.execute(
                "INSERT INTO speed (id, seconds_per_op, measured_at) VALUES (1, ?1, ?2)
                 ON CONFLICT(id) DO UPDATE SET seconds_per_op = ?1, measured_at = ?2",
                params![speed.per_op, at],
            )?;
            self.conn.execute(
                "INSERT INTO long_double_speed (id, seconds_per_add, measured_at) VALUES (1, ?1, ?2)
                 ON CONFLICT(id) DO UPDATE SET seconds_per_add = ?1, measured_at = ?2",
                params![speed.per_ld_add, at],
            )?;
            self.conn.execute(
                "INSERT INTO stream_speed (id, seconds_per_streamed, seconds_per_fetched, measured_at)
                 VALUES (1, ?1, ?2, ?3)
                 ON CONFLICT(id) DO UPDATE SET seconds_per_streamed = ?1,
                     seconds_per_fetched = ?2, measured_at = ?3",
                params![speed.per_streamed, speed.per_fetched, at],
            )
        })()
        .map(|_| ())
        .map_err(|e| self.error(e))
    }

    /// The stored speed, if it was ever measured here. A store written
    /// before long-double adds or streams were measured lacks their rows.
    pub fn load_speed(&self) -> Result<Option<Speed>, HistoryError> {
        (|| {
            let Some(per_op) = self
                .conn
                .query_row("SELECT seconds_per_op FROM speed WHERE id = 1", [], |r| {
                    r.get::<_, f64>(0)
                })
                .optional()?
            else {
                return Ok(None);
            };
            let per_ld_add = self
                .conn
                .query_row(
                    "SELECT seconds_per_add FROM long_double_speed WHERE id = 1",
                    [],
                    |r| r.get::<_, f64>(0),
                )
                .optional()?;
            let streams = self
                .conn
                .query_row(
                    "SELECT seconds_per_streamed, seconds_per_fetched FROM stream_speed WHERE id = 1",
                    [],
                    |r| Ok((r.get::<_, f64>(0)?, r.get::<_, f64>(1)?)),
                )
                .optional()?;
            let mut speed = Speed::at(per_op);
            if let Some(per_ld_add) = per_ld_add {
                speed.per_ld_add = per_ld_add;
            }
            if let Some((per_streamed, per_fetched)) = streams {
                speed.per_streamed = per_streamed;
                speed.per_fetched = per_fetched;
            }
            Ok(Some(speed))
        })()
        .map_err(|e: rusqlite::Error| self.error(e))
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

/// Inserts a run and its tasks; returns the run's id.
fn insert_run(tx: &Transaction<'_>, run: &RunRecord) -> rusqlite::Result<i64> {
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
    let mut ins = tx.prepare(
        "INSERT INTO blocks (run_id, step, iter_start, iter_end, start, end)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for t in &run.tasks {
        for b in &t.blocks {
            ins.execute(params![
                id,
                t.step,
                b.iterations.start as i64,
                b.iterations.end as i64,
                b.start,
                b.end,
            ])?;
        }
    }
    let mut ins = tx.prepare("INSERT INTO widths (run_id, step, width) VALUES (?1, ?2, ?3)")?;
    for t in &run.tasks {
        if let Some(w) = t.width {
            ins.execute(params![id, t.step, w.min(i64::MAX as u64) as i64])?;
        }
    }
    let mut ins = tx.prepare("INSERT INTO lanes (run_id, step, lane) VALUES (?1, ?2, ?3)")?;
    for t in &run.tasks {
        for &l in &t.lanes {
            ins.execute(params![id, t.step, l.min(i64::MAX as u64) as i64])?;
        }
    }
    Ok(id)
}

fn default_location() -> Result<PathBuf, HistoryError> {
    default_path().ok_or_else(|| HistoryError {
        path: PathBuf::from("~/.local/share/flowcast/history.sqlite"),
        kind: HistoryErrorKind::Io(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no home directory: pass --history PATH",
        )),
    })
}

/// SQLite could not open a file it needs (a WAL store's `-shm` in a
/// directory it cannot write).
fn cannot_open(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly)
    )
}

/// `path` as the path part of an SQLite `file:` URI.
fn uri_path(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = String::new();
    for b in absolute.to_string_lossy().bytes() {
        match b {
            b'%' | b'?' | b'#' | 0x80.. => out.push_str(&format!("%{b:02X}")),
            _ => out.push(char::from(b)),
        }
    }
    out
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
