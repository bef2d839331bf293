//! torchbridge as a dependency, built and run as a user would meet it.
//!
//! - `examples/dependent/` (its own crate: `torchbridge = { path = "../.." }`,
//!   `torchbridge-build` in its `build.rs`) is built with `cargo build` in its
//!   directory, and its binary runs with an empty environment (only
//!   `PATH=/usr/bin:/bin`: no `LD_LIBRARY_PATH`, no venv). It must find
//!   libtorch through its RUNPATH, print the right numbers, see CUDA exactly
//!   when this process does, and have `libtorch_cuda.so` in its DT_NEEDED
//!   where libtorch has it.
//! - Every ```rust block of the README becomes a file of a crate made from
//!   the README's own ```toml block (`build.rs`: the block that starts with
//!   `// build.rs`; every other block a binary, which must be a complete
//!   program), built and run the same way.
//!
//! The nested builds share this build's target directory and profile, so they
//! reuse its compiled dependencies: the first run compiles torchbridge once
//! more as a dependency (about 80 s on 2 busy cores), later runs only what
//! changed. A separate target directory would rebuild libtorch's C++ wrappers
//! and everything above them (18 minutes measured here under load).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// The nested cargo builds share one target directory: one at a time.
static CARGO: Mutex<()> = Mutex::new(());

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// This build's target directory: the nested builds share it (and this
/// build's profile), so they reuse its compiled dependencies.
fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => repo().join(dir), // a relative one is relative to the package root, where cargo test runs
        None => repo().join("target"),
    }
}

/// The profile this test was built with, so the nested builds reuse its artifacts.
fn profile() -> (&'static [&'static str], &'static str) {
    if cfg!(debug_assertions) {
        (&[], "debug")
    } else {
        (&["--release"], "release")
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `cargo build` in `dir` as a user would run it; returns cargo's messages.
fn cargo_build(dir: &Path, extra: &[&str]) -> String {
    let _one_at_a_time = CARGO.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let started = std::time::Instant::now();
    let out = Command::new(cargo)
        .arg("build")
        .args(profile().0)
        .args(extra)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .expect("cannot run cargo");
    let messages = text(&out.stderr);
    assert!(out.status.success(), "cargo build in {} failed:\n{messages}", dir.display());
    eprintln!("cargo build in {}: {:.1} s", dir.display(), started.elapsed().as_secs_f64());
    // torchbridge is a path dependency here, so its own warnings would show
    // (as in any dependent's build); none may.
    let warnings: Vec<&str> = messages.lines().filter(|line| line.starts_with("warning")).collect();
    assert!(warnings.is_empty(), "warnings in the build of {}:\n{messages}", dir.display());
    messages
}

/// Runs `binary` with an empty environment but for a minimal PATH.
fn run_clean(binary: &Path) -> String {
    let out: Output = Command::new(binary)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .current_dir("/")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", binary.display()));
    assert!(
        out.status.success(),
        "{} failed with an empty environment ({}):\nstdout:\n{}\nstderr:\n{}",
        binary.display(),
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

fn binary(name: &str) -> PathBuf {
    target_dir().join(profile().1).join(name)
}

/// `readelf -d`: the dynamic section's NEEDED entries and RUNPATH/RPATH.
fn dynamic_section(binary: &Path) -> (Vec<String>, Vec<String>) {
    let out = Command::new("readelf").arg("-d").arg(binary).output().expect("cannot run readelf (binutils)");
    assert!(out.status.success(), "readelf -d {} failed", binary.display());
    let (mut needed, mut runpath) = (Vec::new(), Vec::new());
    for line in text(&out.stdout).lines() {
        let value = || line.split('[').nth(1).and_then(|rest| rest.split(']').next()).unwrap_or("").to_owned();
        if line.contains("(NEEDED)") {
            needed.push(value());
        } else if line.contains("(RUNPATH)") || line.contains("(RPATH)") {
            runpath.extend(value().split(':').map(str::to_owned));
        }
    }
    (needed, runpath)
}

/// Checks what the binary links: libtorch's directory in its RUNPATH, and
/// `libtorch_cuda.so` loaded where libtorch has it (else CUDA stays invisible).
fn check_links(binary: &Path) {
    let lib_dir = torchbridge::LIBTORCH_LIB;
    let (needed, runpath) = dynamic_section(binary);
    assert!(runpath.iter().any(|dir| dir == lib_dir), "{} has RUNPATH {runpath:?}, not {lib_dir}", binary.display());
    assert!(needed.iter().any(|lib| lib == "libtorch_cpu.so"), "{} needs {needed:?}", binary.display());
    let has_cuda = Path::new(lib_dir).join("libtorch_cuda.so").exists();
    assert_eq!(
        needed.iter().any(|lib| lib == "libtorch_cuda.so"),
        has_cuda,
        "{}: DT_NEEDED {needed:?}; {lib_dir}/libtorch_cuda.so exists: {has_cuda}",
        binary.display()
    );
}

/// `name = "..."` / `version = "..."` of every `[[package]]` of a Cargo.lock.
fn locked_versions(lock: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let content = std::fs::read_to_string(lock).unwrap_or_else(|e| panic!("{}: {e}", lock.display()));
    let mut versions: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for package in content.split("[[package]]").skip(1) {
        let field = |key: &str| {
            package.lines().find_map(|line| line.strip_prefix(key)).map(|v| v.trim_matches([' ', '=', '"']).to_owned())
        };
        if let (Some(name), Some(version)) = (field("name ="), field("version =")) {
            versions.entry(name).or_default().insert(version);
        }
    }
    versions
}

#[test]
fn dependent_lock_pins_the_same_versions_as_the_project() {
    // Else the dependent's build compiles other versions: minutes, not seconds.
    let project = locked_versions(&repo().join("Cargo.lock"));
    let dependent = locked_versions(&repo().join("examples/dependent/Cargo.lock"));
    assert!(dependent.contains_key("tch") && dependent.contains_key("torchbridge-build"), "{dependent:?}");
    for (name, versions) in &dependent {
        if let Some(pinned) = project.get(name) {
            assert!(
                versions.is_subset(pinned),
                "examples/dependent/Cargo.lock has {name} {versions:?}, Cargo.lock {pinned:?}: refresh it with \
                 `cp Cargo.lock examples/dependent/ && cargo tree --manifest-path examples/dependent/Cargo.toml`"
            );
        }
    }
}

#[test]
fn dependent_crate_builds_and_runs_without_an_environment() {
    let dir = repo().join("examples/dependent");
    cargo_build(&dir, &["--locked"]);
    let bin = binary("dependent");
    let stdout = run_clean(&bin);
    let line = |key: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("no `{key}` line in:\n{stdout}"))
            .trim()
            .to_owned()
    };
    // erf(-1), erf(0), erf(0.5), erf(2) to 6 places, computed by libtorch in the dependent.
    assert_eq!(line("erf:"), "-0.842701 0.000000 0.520500 0.995322");
    assert_eq!(line("sum:"), "1.5");
    // The dependent sees CUDA exactly when this test binary (torchbridge's own link) does.
    assert_eq!(line("cuda_available:"), torchbridge::cuda_available().to_string());
    assert_eq!(line("cuda_device_count:"), torchbridge::cuda_device_count().to_string());
    assert_eq!(line("libtorch:"), torchbridge::LIBTORCH_LIB);
    check_links(&bin);
}

/// Writes only what changed, so a rerun rebuilds nothing.
fn write_if_changed(path: &Path, content: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(content) {
        std::fs::write(path, content).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// The README's fenced blocks of one language, with the line each starts on.
fn readme_blocks(readme: &str, lang: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (index, line) in readme.lines().enumerate() {
        match &mut current {
            None if line.trim_end() == format!("```{lang}") => current = Some((index + 1, String::new())),
            Some(_) if line.trim_end() == "```" => blocks.push(current.take().unwrap()),
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
            None => {}
        }
    }
    assert!(current.is_none(), "unclosed ```{lang} block in the README");
    blocks
}

#[test]
fn every_rust_block_of_the_readme_builds_and_runs_in_a_crate_of_its_own() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let toml = readme_blocks(&readme, "toml");
    assert_eq!(toml.len(), 1, "the README should have one ```toml block (the dependency lines)");
    let rust = readme_blocks(&readme, "rust");

    // The crate a user makes from the README: its Cargo.toml lines, with the
    // clone's path where the README says `../torchbridge`.
    let dir = target_dir().join("readme-crate");
    let bins = dir.join("src/bin");
    std::fs::create_dir_all(&bins).unwrap();
    let dependencies = toml[0].1.replace("\"../torchbridge", &format!("\"{}", repo().display()));
    assert_eq!(
        dependencies.matches(&*repo().display().to_string()).count(),
        2,
        "the README's ```toml block should name torchbridge and torchbridge-build by path = \"../torchbridge...\":\n{}",
        toml[0].1
    );
    let manifest = format!(
        "[package]\nname = \"readme-blocks\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         {dependencies}\n[workspace]\n"
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    // The dependent's lock, so the same versions are built (cargo adds this crate to it).
    std::fs::copy(repo().join("examples/dependent/Cargo.lock"), dir.join("Cargo.lock")).unwrap();

    let mut build_rs = 0;
    let mut programs = Vec::new();
    for (line, body) in &rust {
        if body.starts_with("// build.rs") {
            write_if_changed(&dir.join("build.rs"), body);
            build_rs += 1;
        } else {
            assert!(
                body.contains("fn main()"),
                "README.md:{line}: a ```rust block must be a complete program (fn main), or start with `// build.rs`"
            );
            let name = format!("readme_line_{line}");
            write_if_changed(&bins.join(format!("{name}.rs")), body);
            programs.push((*line, name));
        }
    }
    assert_eq!(build_rs, 1, "the README should show one build.rs");
    // Blocks that moved or went away.
    for file in std::fs::read_dir(&bins).unwrap() {
        let path = file.unwrap().path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_owned();
        if !programs.iter().any(|(_, name)| *name == stem) {
            std::fs::remove_file(path).unwrap();
        }
    }
    assert!(programs.len() >= 3, "expected the quick start, aten and with_tensors blocks, found {programs:?}");

    cargo_build(&dir, &["--bins"]);
    for (line, name) in &programs {
        let bin = binary(name);
        let stdout = run_clean(&bin);
        assert!(!stdout.trim().is_empty(), "README.md:{line}: the program prints nothing");
        check_links(&bin);
    }
}

#[test]
fn build_helper_unit_tests_pass() {
    let _one_at_a_time = CARGO.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["test", "--quiet"])
        .args(profile().0)
        .current_dir(repo().join("torchbridge-build"))
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .expect("cannot run cargo");
    assert!(out.status.success(), "torchbridge-build's tests:\n{}\n{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stdout).contains("2 passed"), "{}", text(&out.stdout));
}
