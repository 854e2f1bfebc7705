fn main() -> std::process::ExitCode {
    flowcast::cli::main()
}
