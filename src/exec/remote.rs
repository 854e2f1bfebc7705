//! Workers on other ranks: a run spread over MPI processes.
//!
//! Rank 0 plans and follows the plan as on one machine: its [`Runtime`]
//! hands every worker, on any rank, its next piece of work. A worker of
//! another rank is a thread on rank 0 that sends the piece to that rank and
//! waits for the answer; there, one thread per worker evaluates it. So the
//! plan, re-plans, the events and the history all stay on rank 0, and the
//! other ranks only compute.
//!
//! Values move only where they are read: a piece's order carries the inputs
//! its rank does not hold yet (each value crosses to a rank once per run);
//! what a rank makes stays there for its next pieces, and a copy returns to
//! rank 0, which assembles loops, reports every value and keeps the cache.
//! A random call draws from the stream position rank 0 works out, so
//! values and streams are those of a run on one machine.
//!
//! The [`Transport`] is MPI under `--mpi` (`crate::cli::mpi`), or
//! [`loopback`] threads in one process for tests.
//!
//! [`Runtime`]: crate::sched::Runtime

use std::collections::{HashMap, HashSet, VecDeque};
use std::ops::Range;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::wire::{Control, Made, Order, Reply, Run, Side};
use super::{Engine, Event, Given, LoopValues};
use crate::diagnostic::{SourceFile, Span};
use crate::graph::{TaskGraph, TaskId};
use crate::kernels::{width, Value};
use crate::workflow::depth::WALK_STACK;
use crate::workflow::{StepBody, Workflow};

use super::eval::EvalError;

/// Messages between ranks: bytes on numbered channels (MPI tags), in order
/// per sender, channel and receiver.
pub trait Transport: Send + Sync {
    /// This process's rank.
    fn rank(&self) -> usize;
    /// How many ranks there are.
    fn size(&self) -> usize;
    fn send(&self, to: usize, tag: u16, bytes: &[u8]);
    /// The next message from `from` on channel `tag`; waits for it.
    fn recv(&self, from: usize, tag: u16) -> Result<Vec<u8>, String>;
}

/// The channel of rank 0's control messages ([`Control`]).
const CONTROL: u16 = 0;

/// The channel of a rank's worker `j`: orders in, replies out.
fn worker_tag(j: usize) -> u16 {
    u16::try_from(j + 1).unwrap_or(u16::MAX)
}

/// How long a worker waits for an input another worker of its rank is
/// receiving, before it calls the run broken.
const INPUT_WAIT: Duration = Duration::from_secs(600);

/// The ranks of a run as rank 0 sees them: rank r holds workers
/// `r·per_rank .. (r+1)·per_rank`; rank 0's own run here as threads.
#[derive(Clone)]
pub struct Cluster {
    transport: Arc<dyn Transport>,
    per_rank: usize,
    /// Per rank, the values it holds this run, by step name.
    held: Arc<Mutex<Vec<HashSet<String>>>>,
    running: InFlight,
}

/// Per remote worker at work, its rank and the step it runs: what a
/// message about a rank that died names.
#[derive(Clone, Default)]
pub struct InFlight(Arc<Mutex<HashMap<usize, (usize, String)>>>);

impl InFlight {
    /// (rank, step) of every piece of work other ranks are running now.
    pub fn list(&self) -> Vec<(usize, String)> {
        let running = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out: Vec<(usize, usize, String)> = running
            .iter()
            .map(|(&w, (r, s))| (*r, w, s.clone()))
            .collect();
        out.sort();
        out.into_iter().map(|(r, _, s)| (r, s)).collect()
    }

    fn set(&self, w: usize, at: Option<(usize, String)>) {
        let mut running = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match at {
            Some(x) => running.insert(w, x),
            None => running.remove(&w),
        };
    }
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Cluster({} ranks x {} workers)",
            self.transport.size(),
            self.per_rank
        )
    }
}

impl Cluster {
    /// Rank 0's view of `transport`'s ranks, each with `per_rank` workers.
    pub fn new(transport: Arc<dyn Transport>, per_rank: usize) -> Cluster {
        let ranks = transport.size();
        Cluster {
            transport,
            per_rank: per_rank.max(1),
            held: Arc::new(Mutex::new(vec![HashSet::new(); ranks])),
            running: InFlight::default(),
        }
    }

    /// The same ranks with `per_rank` workers each.
    pub fn with_per_rank(&self, per_rank: usize) -> Cluster {
        Cluster {
            per_rank: per_rank.max(1),
            ..self.clone()
        }
    }

    /// The work other ranks are running, as it changes.
    pub fn in_flight(&self) -> InFlight {
        self.running.clone()
    }

    pub fn ranks(&self) -> usize {
        self.transport.size()
    }

    pub fn per_rank(&self) -> usize {
        self.per_rank
    }

    /// Workers over all ranks.
    pub fn workers(&self) -> usize {
        self.per_rank * self.ranks()
    }

    /// The rank that holds worker `w`.
    pub fn rank_of(&self, w: usize) -> usize {
        w / self.per_rank
    }

    /// Tells every other rank the program ends (see [`shut_down`]).
    pub fn shut_down(&self) {
        shut_down(&*self.transport);
    }

    /// Starts a run of `wf` on every other rank.
    pub(crate) fn begin(&self, wf: &Workflow, seed: i64) {
        let begin = Control::Begin {
            path: wf.file.path.display().to_string(),
            text: wf.file.text.to_string(),
            seed,
            per_rank: self.per_rank,
        }
        .encode();
        for r in 1..self.ranks() {
            self.transport.send(r, CONTROL, &begin);
        }
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.iter_mut().for_each(HashSet::clear);
    }

    /// Ends the run on every other rank's workers.
    pub(crate) fn end(&self) {
        let end = Order::End.encode();
        for r in 1..self.ranks() {
            for j in 0..self.per_rank {
                self.transport.send(r, worker_tag(j), &end);
            }
        }
    }

    /// Runs a piece of task `id` (iterations `range` of a loop, else the
    /// call, on `width` threads) on remote worker `w`, and waits for it.
    pub(crate) fn run(
        &self,
        engine: &Engine<'_>,
        w: usize,
        id: TaskId,
        range: Option<Range<usize>>,
        width: usize,
        inputs: &HashMap<String, Arc<Value>>,
    ) -> Result<Made, EvalError> {
        let rank = self.rank_of(w);
        let tag = worker_tag(w % self.per_rank);
        let task = &engine.graph.tasks[id];
        let is_call = range.is_none() || task.iterations.is_none();
        let random_call = task.random && matches!(engine.wf.steps[id].body, StepBody::Expr(_));
        let mut sent: Vec<(String, usize)> = Vec::new();
        let order = {
            let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
            let mut names: Vec<&String> = inputs.keys().collect();
            names.sort();
            let inputs = names
                .into_iter()
                .map(|name| {
                    let v = &inputs[name];
                    if held[rank].insert(name.clone()) {
                        sent.push((name.clone(), v.bytes()));
                        (name.clone(), Some(Arc::clone(v)))
                    } else {
                        (name.clone(), None)
                    }
                })
                .collect();
            Order::Run(Run {
                step: task.name.clone(),
                range: if is_call { None } else { range },
                width,
                start: random_call.then(|| engine.stream_start(id)),
                inputs,
            })
        };
        let bytes = order.encode();
        self.running.set(w, Some((rank, task.name.clone())));
        let t0 = engine.now();
        self.transport.send(rank, tag, &bytes);
        let t1 = engine.now();
        for (name, size) in sent {
            engine.emit(Event::Transfer {
                value: name,
                worker: w,
                from: 0,
                to: rank,
                bytes: size,
                start: t0,
                end: t1,
            });
        }
        let span = match &engine.wf.steps[id].body {
            StepBody::Expr(e) => e.span,
            StepBody::Loop(l) => l.body.span,
        };
        let reply = self
            .transport
            .recv(rank, tag)
            .and_then(|b| Reply::decode(&b).map_err(|_| "sent a damaged reply".to_string()));
        let t2 = engine.now();
        self.running.set(w, None);
        let reply = match reply {
            Ok(r) => r,
            Err(e) => {
                return Err(EvalError {
                    span,
                    message: format!("rank {rank} stopped answering: {e}"),
                })
            }
        };
        let Reply {
            result,
            side,
            seconds,
        } = reply;
        engine.merge_remote(id, side);
        if let Ok(made) = &result {
            if matches!(made, Made::Call(_)) {
                // What a rank made it holds: its next pieces read it there.
                self.held
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_mut(rank)
                    .map(|h| h.insert(task.name.clone()));
            }
            let back = t2
                .saturating_sub(t1)
                .saturating_sub(Duration::from_secs_f64(seconds.max(0.0)));
            engine.emit(Event::Transfer {
                value: task.name.clone(),
                worker: w,
                from: rank,
                to: 0,
                bytes: made.bytes(),
                start: t2.saturating_sub(back),
                end: t2,
            });
        }
        result.map_err(|(message, span)| EvalError {
            span,
            message: format!("on rank {rank}: {message}"),
        })
    }
}

/// Tells every other rank the program ends; they return from [`serve`].
pub fn shut_down(transport: &dyn Transport) {
    let quit = Control::Quit.encode();
    for r in 1..transport.size() {
        transport.send(r, CONTROL, &quit);
    }
}

/// Serves rank 0 until it says the program ends: what every other rank
/// runs. Each run's workflow arrives as text and is analysed here.
pub fn serve(transport: &dyn Transport) -> Result<(), String> {
    loop {
        let bytes = transport.recv(0, CONTROL)?;
        match Control::decode(&bytes) {
            Ok(Control::Quit) => return Ok(()),
            Ok(Control::Begin {
                path,
                text,
                seed,
                per_rank,
            }) => serve_run(transport, &path, text, seed, per_rank),
            Err(_) => {
                return Err(format!(
                    "rank {} received a damaged control message",
                    transport.rank()
                ))
            }
        }
    }
}

/// The values a rank holds this run, and a signal for workers waiting on
/// one another's inputs.
#[derive(Default)]
struct Store {
    values: Mutex<HashMap<String, Arc<Value>>>,
    arrived: Condvar,
}

impl Store {
    fn put(&self, name: &str, v: Arc<Value>) {
        self.values
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(name.to_string(), v);
        self.arrived.notify_all();
    }

    /// The value `name`, waiting while another worker of this rank
    /// receives it.
    fn get(&self, name: &str) -> Option<Arc<Value>> {
        let deadline = Instant::now() + INPUT_WAIT;
        let mut values = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(v) = values.get(name) {
                return Some(Arc::clone(v));
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            values = self
                .arrived
                .wait_timeout(values, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// A warning when this process may run on fewer cores than the `per_rank`
/// workers it serves: mpirun binds each rank to one core by default, which
/// would make its workers take turns.
pub fn binding_warning(rank: usize, per_rank: usize) -> Option<String> {
    let cores = crate::cores::cores();
    (cores < per_rank).then(|| {
        format!(
            "warning: rank {rank} may run on {cores} core(s) but has {per_rank} workers: \
             mpirun binds each rank to cores; give it more (mpirun --bind-to none, \
             or --map-by slot:PE={per_rank}; srun --cpus-per-task={per_rank})"
        )
    })
}

fn serve_run(transport: &dyn Transport, path: &str, text: String, seed: i64, per_rank: usize) {
    let rank = transport.rank();
    if let Some(w) = binding_warning(rank, per_rank) {
        crate::stdout::errln!("{w}");
    }
    let analysed = crate::workflow::parse(SourceFile::new(path, text))
        .and_then(|wf| crate::graph::build(&wf).map(|g| (wf, g)))
        .map_err(|ds| {
            ds.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        });
    let given = Given::default();
    let cancel = AtomicBool::new(false);
    let sink = |_: Event| {};
    let engine = analysed
        .as_ref()
        .map(|(wf, graph)| Engine::new(wf, graph, &given, seed, &sink, &cancel));
    let store = Store::default();
    std::thread::scope(|s| {
        for j in 0..per_rank {
            let (engine, store) = (&engine, &store);
            let spawned = std::thread::Builder::new()
                .name(format!("flowcast-rank{rank}-worker-{j}"))
                .stack_size(WALK_STACK)
                .spawn_scoped(s, move || loop {
                    let tag = worker_tag(j);
                    let Ok(bytes) = transport.recv(0, tag) else {
                        return;
                    };
                    let reply = match (Order::decode(&bytes), engine) {
                        (Ok(Order::End), _) => return,
                        (Ok(Order::Run(run)), Ok(engine)) => work(engine, store, run),
                        (Ok(Order::Run(_)), Err(e)) => {
                            failure(format!("rank {rank} cannot analyse the workflow:\n{e}"))
                        }
                        (Err(_), _) => failure(format!("rank {rank} received a damaged order")),
                    };
                    transport.send(0, tag, &reply.encode());
                });
            if let Err(e) = spawned {
                // Rank 0 will wait on this worker forever: say why, loudly.
                crate::stdout::errln!("error: rank {rank} cannot start worker {j}: {e}");
            }
        }
    });
}

fn failure(message: String) -> Reply {
    Reply {
        result: Err((message, Span::default())),
        side: Side::default(),
        seconds: 0.0,
    }
}

/// Evaluates one order on this rank.
fn work(engine: &Engine<'_>, store: &Store, run: Run) -> Reply {
    let graph: &TaskGraph = engine.graph;
    let Some(id) = graph.tasks.iter().position(|t| t.name == run.step) else {
        return failure(format!("no step `{}` in this rank's workflow", run.step));
    };
    let mut inputs = HashMap::new();
    for (name, value) in run.inputs {
        let v = match value {
            Some(v) => {
                store.put(&name, Arc::clone(&v));
                v
            }
            None => match store.get(&name) {
                Some(v) => v,
                None => return failure(format!("input `{name}` never reached this rank")),
            },
        };
        inputs.insert(name, v);
    }
    let began = Instant::now();
    let result = match run.range.filter(|_| graph.tasks[id].iterations.is_some()) {
        Some(range) => engine
            .eval_iterations(id, &inputs, Some(range), false)
            .map(Made::Piece),
        None => {
            let start = run.start;
            let call = || engine.eval_step_from(id, &inputs, start);
            let value = if run.width > 1 {
                width::run_wide(run.width, WALK_STACK, call)
            } else {
                call()
            };
            value.map(|v| {
                let v = Arc::new(v);
                store.put(&run.step, Arc::clone(&v));
                Made::Call(v)
            })
        }
    };
    let seconds = began.elapsed().as_secs_f64();
    let (busy_nanos, fastest_nanos) = engine.take_loop_times(id);
    Reply {
        result: result.map_err(|e| (e.message, e.span)),
        side: Side {
            stream_end: engine.stream_end(id),
            path: engine.path(id),
            warnings: engine.take_raised(id),
            busy_nanos,
            fastest_nanos,
        },
        seconds,
    }
}

/// Ranks as threads of one process, talking through queues: how the tests
/// run a cluster without MPI. Returns one transport per rank.
pub fn loopback(ranks: usize) -> Vec<Arc<dyn Transport>> {
    let shared = Arc::new(Queues::default());
    (0..ranks.max(1))
        .map(|rank| {
            Arc::new(Loopback {
                rank,
                size: ranks.max(1),
                queues: Arc::clone(&shared),
            }) as Arc<dyn Transport>
        })
        .collect()
}

/// Messages waiting, by (from, to, tag).
type Mailboxes = HashMap<(usize, usize, u16), VecDeque<Vec<u8>>>;

#[derive(Default)]
struct Queues {
    queues: Mutex<Mailboxes>,
    arrived: Condvar,
}

struct Loopback {
    rank: usize,
    size: usize,
    queues: Arc<Queues>,
}

impl Transport for Loopback {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn send(&self, to: usize, tag: u16, bytes: &[u8]) {
        self.queues
            .queues
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry((self.rank, to, tag))
            .or_default()
            .push_back(bytes.to_vec());
        self.queues.arrived.notify_all();
    }

    fn recv(&self, from: usize, tag: u16) -> Result<Vec<u8>, String> {
        let mut q = self
            .queues
            .queues
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(b) = q
                .get_mut(&(from, self.rank, tag))
                .and_then(VecDeque::pop_front)
            {
                return Ok(b);
            }
            q = self
                .queues
                .arrived
                .wait(q)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Made {
    /// About how many bytes it is.
    pub(crate) fn bytes(&self) -> usize {
        match self {
            Made::Call(v) => v.bytes(),
            Made::Piece(LoopValues::Numbers(x)) => 8 * x.len(),
            Made::Piece(LoopValues::Values(vs)) => vs.iter().map(Value::bytes).sum(),
        }
    }

    /// A call's value.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Made::Call(v) => Arc::try_unwrap(v).unwrap_or_else(|v| (*v).clone()),
            Made::Piece(p) => p.into_value(),
        }
    }

    /// A loop piece's values.
    pub(crate) fn into_piece(self) -> LoopValues {
        match self {
            Made::Piece(p) => p,
            call => {
                let mut p = LoopValues::default();
                p.push(call.into_value());
                p
            }
        }
    }
}
