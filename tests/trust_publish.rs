//! Issue 24 items 3, 8 and 9 (part): publishing into a folder shared with others. The swap
//! keeps the folder's mode, owner and group and those of every entry it carries over;
//! FIFOs and sockets in `--out` neither hang nor fail a publish; a run inside a folder
//! being published (or around it) is refused instead of being rolled back; SIGHUP cleans
//! up like SIGTERM; a lock whose pid was reused is stale.

use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

/// `table cosmos-test` (exact, instant) into `out`, with a 30 s guard.
fn table(out: &Path, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut c = assert_cmd::Command::from_std(bin());
    c.args([
        "table",
        "cosmos-test",
        "--thresholds",
        "50",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ])
    .current_dir(project())
    .timeout(Duration::from_secs(30));
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

fn table_ok(out: &Path) {
    let (code, err) = table(out, &[]);
    assert_eq!(code, Some(0), "{err}");
}

fn chown(p: &Path, uid: u32, gid: u32) {
    std::os::unix::fs::chown(p, Some(uid), Some(gid)).unwrap();
}

fn chmod(p: &Path, mode: u32) {
    fs::set_permissions(p, fs::Permissions::from_mode(mode)).unwrap();
}

fn owner_mode(p: &Path) -> (u32, u32, u32) {
    let m = fs::symlink_metadata(p).unwrap();
    (m.uid(), m.gid(), m.mode() & 0o7777)
}

fn wait_for(mut ok: impl FnMut() -> bool, what: &str) {
    let start = Instant::now();
    while !ok() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out: {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn a_publish_keeps_mode_owner_and_group_of_the_folder_and_its_entries() {
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: giving files to other users needs root");
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("shared");
    fs::create_dir(&out).unwrap();
    fs::create_dir(out.join("private")).unwrap();
    fs::write(out.join("private/notes.txt"), "mine").unwrap();
    chown(&out.join("private/notes.txt"), 4321, 4321);
    chmod(&out.join("private/notes.txt"), 0o600);
    chown(&out.join("private"), 4321, 4321);
    chmod(&out.join("private"), 0o700);
    chown(&out, 1234, 1234);
    chmod(&out, 0o2775);
    let ino = fs::metadata(out.join("private/notes.txt")).unwrap().ino();

    table_ok(&out);
    assert_eq!(owner_mode(&out), (1234, 1234, 0o2775));
    assert_eq!(owner_mode(&out.join("private")), (4321, 4321, 0o700));
    assert_eq!(
        owner_mode(&out.join("private/notes.txt")),
        (4321, 4321, 0o600)
    );
    assert_eq!(
        fs::metadata(out.join("private/notes.txt")).unwrap().ino(),
        ino
    );
    // New files belong to the folder's owner and group.
    let csvs: Vec<String> = names(&out)
        .into_iter()
        .filter(|n| n.ends_with(".csv"))
        .collect();
    assert!(!csvs.is_empty());
    for n in &csvs {
        let (uid, gid, _) = owner_mode(&out.join(n));
        assert_eq!((uid, gid), (1234, 1234), "{n}");
    }
    // A file the next set replaces keeps the mode and owner it was given.
    let csv = out.join(&csvs[0]);
    chown(&csv, 777, 1234);
    chmod(&csv, 0o640);
    table_ok(&out);
    assert_eq!(owner_mode(&csv), (777, 1234, 0o640));
    assert_eq!(owner_mode(&out), (1234, 1234, 0o2775));
    assert_eq!(owner_mode(&out.join("private")), (4321, 4321, 0o700));
}

#[test]
fn fifos_and_sockets_in_out_neither_hang_nor_fail_a_publish() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("out");
    fs::create_dir(&out).unwrap();
    let fifo = out.join("pipe");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    fs::create_dir(out.join("sub")).unwrap();
    let _listener = std::os::unix::net::UnixListener::bind(out.join("sub/sock")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", out.join("zero")).unwrap();
    for _ in 0..2 {
        let start = Instant::now();
        table_ok(&out);
        assert!(start.elapsed() < Duration::from_secs(20));
    }
    // They are kept, as the user left them.
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(fs::symlink_metadata(out.join("sub/sock"))
        .unwrap()
        .file_type()
        .is_socket());
    assert_eq!(
        fs::read_link(out.join("zero")).unwrap(),
        Path::new("/dev/zero")
    );
    assert!(
        out.join("cosmos-test.csv").is_file() || names(&out).iter().any(|n| n.ends_with(".csv"))
    );
}

#[test]
fn runs_inside_or_around_a_folder_being_published_are_refused_not_rolled_back() {
    let t = tempfile::tempdir().unwrap();
    let outer = t.path().join("r");
    let inner = outer.join("mine");
    table_ok(&outer);

    // The inner run writes (paused before its swap): the outer publication is refused.
    let mut first = bin()
        .args([
            "table",
            "cosmos-test",
            "--thresholds",
            "60",
            "--quiet",
            "--out",
        ])
        .arg(&inner)
        .env("COSMOSIM_TEST_PAUSE_BEFORE_PUBLISH_MS", "3000")
        .current_dir(project())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for(|| outer.join(".mine.lock").exists(), "the inner lock");
    let (code, err) = table(&outer, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("is being written by pid {}", first.id()))
            && err.contains(inner.to_str().unwrap()),
        "{err}"
    );
    assert!(first.wait().unwrap().success());
    let inner_set = names(&inner);
    assert!(inner_set.iter().any(|n| n.ends_with(".csv")));

    // The outer run writes: a run into a folder inside it is refused.
    let mut first = bin()
        .args([
            "table",
            "cosmos-test",
            "--thresholds",
            "50",
            "--quiet",
            "--out",
        ])
        .arg(&outer)
        .env("COSMOSIM_TEST_PAUSE_BEFORE_PUBLISH_MS", "3000")
        .current_dir(project())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for(|| t.path().join(".r.lock").exists(), "the outer lock");
    let (code, err) = table(&inner, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("is being written by pid {}", first.id())),
        "{err}"
    );
    assert!(first.wait().unwrap().success());
    // The inner set survived the outer publication.
    assert_eq!(names(&inner), inner_set);
    assert_eq!(names(t.path()), vec!["r"]);
}

#[test]
fn sighup_stops_a_run_and_leaves_no_lock_or_staging() {
    let t = tempfile::tempdir().unwrap();
    let mut child = bin()
        .args([
            "run",
            project()
                .join("scenarios/cosmos/duel.toml")
                .to_str()
                .unwrap(),
            "--out",
            "out",
            "--trials",
            "1000000000",
            "--quiet",
        ])
        .current_dir(t.path())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(
        || {
            names(t.path())
                .iter()
                .any(|n| n.starts_with(".out.staging-"))
        },
        "the run started",
    );
    std::thread::sleep(Duration::from_millis(300));
    unsafe { libc::kill(child.id() as i32, libc::SIGHUP) };
    let sent = Instant::now();
    let status = child.wait().unwrap();
    assert!(
        sent.elapsed() < Duration::from_millis(1500),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(status.code(), Some(129));
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.contains("SIGHUP"), "{err}");
    assert!(names(t.path()).is_empty(), "{:?}", names(t.path()));
}

/// Start time of `pid` (clock ticks since boot, /proc/<pid>/stat field 22).
fn start_time(pid: u32) -> u64 {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let rest = &stat[stat.rfind(')').unwrap() + 1..];
    rest.split_whitespace().nth(19).unwrap().parse().unwrap()
}

#[test]
fn a_lock_left_by_a_pid_now_reused_does_not_block_the_folder() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("out");
    let lock = t.path().join(".out.lock");
    let mut other = Command::new("sleep").arg("30").spawn().unwrap();
    let pid = other.id();
    let boot = fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap();
    let boot = boot.trim();
    // The pid lives, but it started after the process that wrote the lock.
    fs::write(&lock, format!("{pid} {} {boot}\n", start_time(pid) - 1)).unwrap();
    table_ok(&out);
    assert!(!lock.exists());
    // The same pid and start time: the writer still runs, the folder is busy.
    fs::write(&lock, format!("{pid} {} {boot}\n", start_time(pid))).unwrap();
    let (code, err) = table(&out, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("is being written by pid {pid}")),
        "{err}"
    );
    let _ = other.kill();
    let _ = other.wait();
}
