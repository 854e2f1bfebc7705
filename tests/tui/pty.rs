//! End to end in a pseudo-terminal (util-linux `script`): the UI opens on
//! the alternate screen, answers keys, and on `q` leaves the alternate
//! screen and exits. The UI runs in this test binary itself, re-invoked
//! as the ignored `pty_child` test under `script`.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
#[ignore = "run by `pty_quit_restores_the_terminal` inside a pseudo-terminal"]
fn pty_child() {
    let Ok(path) = std::env::var("FLOWCAST_PTY_WORKFLOW") else {
        return;
    };
    let result = flowcast::tui::run_tui(
        std::path::Path::new(&path),
        Default::default(),
        &flowcast::cli::chart::export_default,
    );
    println!("\nchild done: {}", result.is_ok());
}

#[test]
fn pty_quit_restores_the_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("no `script` here: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let wf = dir.path().join("pty.toml");
    std::fs::write(
        &wf,
        "[workflow]\nname = \"pty\"\n\n[steps]\nx = \"1 + 1\"\n",
    )
    .unwrap();
    let exe = std::env::current_exe().unwrap();
    let cmd = format!(
        "stty cols 80 rows 24; exec '{}' pty::pty_child --exact --ignored --nocapture --test-threads=1",
        exe.display()
    );
    let mut child = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        // Runs record history; keep it out of the user's data directory.
        .env(
            "XDG_DATA_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/xdg-data"),
        )
        .env("FLOWCAST_CACHE", "off")
        .env("FLOWCAST_PTY_WORKFLOW", &wf)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    std::thread::sleep(Duration::from_millis(1500));
    stdin.write_all(b"?").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(700));
    stdin.write_all(b"q").unwrap();
    stdin.flush().unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("the UI did not quit on `q`");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    drop(stdin);
    let out = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    assert!(status.success(), "{status:?}\n{out}");
    let enter = out
        .find("\x1b[?1049h")
        .expect("entered the alternate screen");
    let help = out.find("keys").expect("the help overlay was drawn");
    let leave = out.rfind("\x1b[?1049l").expect("left the alternate screen");
    assert!(enter < help && help < leave, "{out:?}");
    assert!(out.contains("child done: true"), "{out:?}");
}

/// A SIGTERM (a `kill`, a `timeout`) ends the UI as `q` does: the terminal
/// leaves the alternate screen, and the status is 128 + 15.
#[test]
fn pty_sigterm_restores_the_terminal() {
    let Some((_dir, wf, mut child)) =
        flowcast_in_pty("sigterm", "spin(30)", "; echo \"status $?\"")
    else {
        return;
    };
    let stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    std::thread::sleep(Duration::from_millis(2000));
    let pattern = format!("tui {}", wf.display());
    let _ = Command::new("pkill")
        .args(["-TERM", "-f", &pattern])
        .status();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("the UI did not end on SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    let out = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let enter = out
        .find("\x1b[?1049h")
        .expect("entered the alternate screen");
    let leave = out.rfind("\x1b[?1049l").expect("left the alternate screen");
    assert!(enter < leave, "{out:?}");
    assert!(out.contains("status 143"), "{out:?}");
}

/// A terminal that goes away (its window closed, tmux killed) ends the UI:
/// a hung-up terminal reads as endless end-of-file, which must not keep
/// the process spinning on a core with no one to see it.
#[test]
fn pty_hangup_ends_the_ui() {
    let Some((_dir, wf, mut child)) = flowcast_in_pty("hangup", "spin(0.1)", "") else {
        return;
    };
    // Drained, so the UI never waits on a full pipe.
    let mut stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    std::thread::sleep(Duration::from_millis(2000));
    let pattern = format!("tui {}", wf.display());
    let alive = || {
        Command::new("pgrep")
            .args(["-f", &pattern])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    assert!(alive(), "the UI did not start");
    // `script` holds the terminal's master side: killing it hangs it up.
    child.kill().unwrap();
    let _ = child.wait();
    let started = Instant::now();
    while alive() {
        if started.elapsed() > Duration::from_secs(15) {
            let _ = Command::new("pkill")
                .args(["-KILL", "-f", &pattern])
                .status();
            panic!("the UI kept running after its terminal hung up");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A terminal that says it is 65535 x 65535 cells (a pty whose size a
/// broken program set): the UI sized its screen buffers to it, billions
/// of cells, and was OOM-killed (here, under 4 GB of address space, it
/// aborted) with the terminal left raw. It draws at most 1024 x 1024
/// cells, opens, and quits on `q` as on any terminal.
#[test]
fn pty_a_huge_terminal_is_drawn_bounded() {
    let Some((_dir, _wf, mut child)) = flowcast_in_pty_sized(
        "huge",
        "1 + 1",
        "; echo \"status $?\"",
        "stty cols 65535 rows 65535; ulimit -v 4000000",
    ) else {
        return;
    };
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    std::thread::sleep(Duration::from_millis(3000));
    let _ = stdin.write_all(b"q");
    let _ = stdin.flush();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the UI did not quit on `q`");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    let out = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let cut = (out.len().saturating_sub(2000)..out.len())
        .find(|&i| out.is_char_boundary(i))
        .unwrap_or(out.len());
    let tail = &out[cut..];
    assert!(out.contains("status 0"), "{tail:?}");
    let enter = out
        .find("\x1b[?1049h")
        .expect("entered the alternate screen");
    let leave = out.rfind("\x1b[?1049l").expect("left the alternate screen");
    assert!(enter < leave, "{tail:?}");
    // The header's workflow name was drawn.
    assert!(out[enter..leave].contains("pty"), "{tail:?}");
}

/// `flowcast tui` on a one-step workflow (`step` its expression) in an
/// 80x24 pseudo-terminal that `script` holds, with `after` run by the
/// shell once it ends; its stdin and stdout piped. `None` (the test
/// skipped) without `script`.
fn flowcast_in_pty(
    name: &str,
    step: &str,
    after: &str,
) -> Option<(tempfile::TempDir, std::path::PathBuf, std::process::Child)> {
    flowcast_in_pty_sized(name, step, after, "stty cols 80 rows 24")
}

/// [`flowcast_in_pty`] with `setup` run by the shell first, in place of
/// setting the terminal to 80x24.
fn flowcast_in_pty_sized(
    name: &str,
    step: &str,
    after: &str,
    setup: &str,
) -> Option<(tempfile::TempDir, std::path::PathBuf, std::process::Child)> {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("no `script` here: skipped");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let wf = dir.path().join(format!("{name}-pty.toml"));
    std::fs::write(
        &wf,
        format!("[workflow]\nname = \"pty\"\n\n[steps]\nx = \"{step}\"\n"),
    )
    .unwrap();
    let cmd = format!(
        "{setup}; '{}' tui '{}'{after}",
        env!("CARGO_BIN_EXE_flowcast"),
        wf.display()
    );
    let child = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        // Runs record history; keep it out of the user's data directory.
        .env(
            "XDG_DATA_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/xdg-data"),
        )
        .env("FLOWCAST_CACHE", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    Some((dir, wf, child))
}
