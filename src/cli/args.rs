//! The command line: every subcommand and option, as clap parses them.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "flowcast",
    version,
    about = "Run statistical workflows on every core",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A workflow file to run (same as `flowcast run FILE`).
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub settings: Settings,
    #[command(flatten)]
    pub cache: CacheArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Validate a workflow and print its task graph with inferred shapes.
    Check { file: PathBuf },
    /// List the built-in functions with their formal arguments (those whose
    /// names contain PATTERN, when given).
    Functions { pattern: Option<String> },
    /// Run a workflow.
    Run(RunArgs),
    /// Show the predicted schedule of a workflow without running it.
    Plan {
        file: PathBuf,
        #[command(flatten)]
        settings: Settings,
        #[arg(long)]
        json: bool,
    },
    /// List past runs from the history store.
    History {
        /// Only runs of this workflow (by name).
        workflow: Option<String>,
        #[arg(long, value_name = "PATH")]
        history: Option<PathBuf>,
    },
    /// The cost models: `flowcast model show`.
    Model {
        #[command(subcommand)]
        what: ModelCommand,
    },
    /// Measure the cost of handing values between workers, and this
    /// machine's speed (seconds per op, for the cost models' priors); store
    /// both.
    Calibrate {
        #[arg(long, value_name = "PATH")]
        history: Option<PathBuf>,
        /// Measure the network between MPI ranks instead, by a ping-pong
        /// (run under mpirun; needs a flowcast built with `--features mpi`).
        #[arg(long)]
        mpi: bool,
    },
    /// Open the terminal UI on a workflow (what `flowcast FILE` does).
    Tui {
        file: PathBuf,
        #[command(flatten)]
        settings: Settings,
        /// Seed for the random stream (default: [workflow] seed, else random).
        #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
        seed: Option<i64>,
        /// Do not watch the workflow and re-run on every save.
        #[arg(long)]
        no_watch: bool,
        #[command(flatten)]
        cache: CacheArgs,
    },
    /// The cache of step values: `flowcast cache clean [FILE]` empties the
    /// one beside FILE (or `--cache DIR`, or ./.flowcast).
    Cache {
        #[command(subcommand)]
        what: CacheCommand,
    },
    /// Run a workflow and export its Gantt chart (predicted and actual),
    /// export a past run's (`--run ID|last`), or re-export a chart saved as
    /// `.gantt.json`.
    Export {
        /// A workflow, or a chart written with `--format json`. With
        /// `--run last`: the workflow whose last run to export.
        file: Option<PathBuf>,
        /// A run from the history store: its id (see `flowcast history`) or
        /// `last`.
        #[arg(long, value_name = "ID|last")]
        run: Option<String>,
        /// svg | png | trace | mermaid | csv | json (default: from -o's extension)
        #[arg(long)]
        format: Option<String>,
        /// Where to write.
        #[arg(short = 'o', long = "output", value_name = "PATH")]
        out: PathBuf,
        #[command(flatten)]
        settings: Settings,
        /// Seed for the random stream (default: [workflow] seed, else random).
        #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
        seed: Option<i64>,
    },
    /// Benchmarks: `flowcast bench kernels` times the heavy kernels (and R
    /// doing the same work, when Rscript is installed).
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
    /// Schedule a bare cost-annotated DAG (JSON, or Kasahara's STG format) and print the schedule.
    Schedule {
        /// `{"tasks":[{"id":"t1","cost":1.5}],"edges":[{"from":"t1","to":"t2","bytes":0}]}`,
        /// or an STG file (`.stg`, or any file not starting with `{`).
        graph: PathBuf,
        /// Number of workers.
        #[arg(
            short = 'p',
            long = "processors",
            value_name = "N",
            default_value_t = 8
        )]
        processors: usize,
        /// emcp | mcp | baseline | dynamic | ideal
        #[arg(long, default_value = "emcp")]
        scheduler: String,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Print only the summary line, not the table of tasks.
        #[arg(long, short = 'q', conflicts_with = "json")]
        quiet: bool,
    },
}

#[derive(Subcommand, Debug)]
pub enum CacheCommand {
    /// Remove every cached value.
    Clean {
        /// A workflow: its cache (default: ./.flowcast).
        file: Option<PathBuf>,
        /// The cache directory itself.
        #[arg(long, value_name = "DIR", conflicts_with = "file")]
        cache: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
pub enum ModelCommand {
    /// Each model's observations and recent prediction error.
    Show {
        #[arg(long, value_name = "PATH")]
        history: Option<PathBuf>,
        /// Which kind of models: loglinear (the default) | paper.
        #[arg(long)]
        model: Option<String>,
    },
}

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// eigen, svd, qr, prcomp and solve at several sizes, then the R
    /// library (summaries, distributions, tests, apply family, models) on
    /// vectors of 10^6 and 1000x1000 matrices, each against R.
    Kernels {
        /// Matrix sizes n (n x n) of the decompositions.
        #[arg(long, value_delimiter = ',', default_values_t = [250, 500, 1000])]
        sizes: Vec<usize>,
        /// Do not run R even when Rscript is installed.
        #[arg(long)]
        no_r: bool,
        /// Only the library table, not the decompositions.
        #[arg(long)]
        library: bool,
        /// Only the library cases whose expression contains this text.
        #[arg(long, value_name = "TEXT")]
        only: Option<String>,
    },
    /// The paper's section VI on this machine: Figure 7, Tables I, IV, V.
    Paper {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A tiny version that finishes in seconds.
        #[arg(long)]
        quick: bool,
        #[arg(long)]
        json: bool,
    },
    /// Real makespan of emcp against dynamic (work-stealing) on workflows,
    /// after warm-up runs that train the models.
    Workflows {
        /// Workflow files (default: workflows/*.toml).
        files: Vec<PathBuf>,
        /// Measured runs per scheduler.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Training runs before measuring.
        #[arg(long, default_value_t = 2)]
        warmup: usize,
        /// Worker counts, each measured in turn, e.g. `-p 2,4,16`
        /// (default: all cores).
        #[arg(
            short = 'p',
            long = "processors",
            value_name = "N",
            value_delimiter = ','
        )]
        processors: Vec<usize>,
        #[arg(long, default_value_t = 42)]
        seed: i64,
    },
    /// Under mpirun: each workflow spread over the job's ranks against
    /// one process with as many workers (needs `--features mpi`).
    Mpi {
        /// Workflow files (default: workflows/*.toml).
        files: Vec<PathBuf>,
        /// Runs of each, alternating.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// Workers per rank (default: 2).
        #[arg(
            short = 'p',
            long = "processors",
            value_name = "K",
            default_value_t = 2
        )]
        processors: usize,
        #[arg(long, default_value_t = 42)]
        seed: i64,
    },
    /// Each do-all loop of a workflow under every loop policy (static,
    /// cyclic, guided) against the one flowcast chooses.
    Loops {
        /// Workflow files (default: workflows/triangular.toml).
        files: Vec<PathBuf>,
        /// Measured runs per policy (the median is shown).
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// Workers (default: all cores).
        #[arg(short = 'p', long = "processors", value_name = "N")]
        processors: Option<usize>,
        #[arg(long, default_value_t = 42)]
        seed: i64,
    },
    /// The cost models' priors against measured times: each step of a
    /// workflow run from an empty history, as on a new machine.
    Priors {
        /// Workflow files (default: a built-in set of the common kernels).
        files: Vec<PathBuf>,
        /// Runs, each from an empty history (the medians are shown).
        #[arg(long, default_value_t = 3)]
        runs: usize,
        #[arg(long, default_value_t = 42)]
        seed: i64,
    },
    /// Incremental re-runs: the time from a save to its result with the
    /// cache (an edited loop, a comment, nothing, the seed, a new
    /// invocation), against running everything.
    Rerun {
        /// Workflow files (default: workflows/fig1.toml).
        files: Vec<PathBuf>,
        #[arg(short = 'p', long = "processors", value_name = "N")]
        processors: Option<usize>,
    },
    /// MCP and extended MCP against the lower bound on STG-style random graphs.
    Schedule {
        /// Graph sizes (tasks).
        #[arg(long, value_delimiter = ',', default_values_t = [50, 100, 300, 500, 1000, 2000, 5000])]
        sizes: Vec<usize>,
        /// Worker counts.
        #[arg(short = 'p', long = "processors", value_delimiter = ',', default_values_t = [2, 4, 8, 16, 32])]
        processors: Vec<usize>,
        /// Graphs per method and size (average predecessors 1, 3, 5, ...).
        #[arg(long, default_value_t = 3)]
        graphs: usize,
    },
}

/// A `--seed`: one of R's 32-bit integers, as the workflow's `seed` is.
/// Past them the stream silently used the low 32 bits (`--seed 4294967297`
/// drew what `--seed 1` draws) while the summary showed the seed given.
fn parse_seed(s: &str) -> Result<i64, String> {
    let seed: i64 = s.parse().map_err(|e| format!("{e}"))?;
    if i32::try_from(seed).is_err() {
        return Err("must fit in R's 32-bit integers (-2147483648 to 2147483647)".to_string());
    }
    Ok(seed)
}

#[derive(clap::Args, Debug, Default)]
pub struct RunArgs {
    pub file: PathBuf,
    /// Print progress and a summary instead of opening the terminal UI.
    #[arg(long)]
    pub headless: bool,
    /// Write each step's value as DIR/<step>.json.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print one JSON document instead of the summary table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub settings: Settings,
    /// Seed for the random stream (default: [workflow] seed, else random).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
    pub seed: Option<i64>,
    /// Re-run on every save of the workflow or the data it reads.
    #[arg(long)]
    pub watch: bool,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Run across the ranks of an MPI job (under mpirun or srun): rank 0
    /// plans and reports, every rank computes with -p workers. Needs a
    /// flowcast built with `--features mpi`.
    #[arg(long)]
    pub mpi: bool,
}

/// How runs reuse the values of steps that have not changed.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct CacheArgs {
    /// Keep step values in DIR between invocations (default: .flowcast/
    /// beside the workflow, or $FLOWCAST_CACHE; FLOWCAST_CACHE=off disables).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Keep no values on disk (the UI and watch mode still reuse values in
    /// memory between runs).
    #[arg(long, conflicts_with = "cache")]
    pub no_cache: bool,
    /// Run every step, reusing nothing (what it computes is still kept).
    #[arg(long)]
    pub force: bool,
    /// Bound on the cache directory, in MiB (default 4096): the least
    /// recently used values are removed first.
    #[arg(long, value_name = "MIB")]
    pub cache_limit: Option<u64>,
}

/// How a workflow is planned and learnt from: the options every command
/// that plans or runs one shares.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct Settings {
    /// Number of workers (default: [workflow] processors, else all cores).
    #[arg(short = 'p', long = "processors", value_name = "N")]
    pub processors: Option<usize>,
    /// emcp | mcp | baseline | dynamic | ideal (default: [workflow] scheduler, else emcp).
    #[arg(long)]
    pub scheduler: Option<String>,
    /// The history store (default: the user's data directory).
    #[arg(long, value_name = "PATH")]
    pub history: Option<PathBuf>,
    /// The cost model: loglinear (the default) | paper (the paper's ANN).
    #[arg(long)]
    pub model: Option<String>,
    /// The paper's M (default: [workflow] m, else 8): emcp's loop
    /// granularity, and no loop test drive below p·M iterations.
    #[arg(long = "test-drive-m", value_name = "M")]
    pub m: Option<usize>,
}
