//! The shape of the code, checked: no file imports a file of a layer above its own, and no
//! two files import each other, directly or round a longer loop. ARCHITECTURE.md draws the
//! layers; this test is the same table, so the drawing cannot drift from the code.
//!
//! Every `use` and every `crate::` / `super::` / child-module path outside `#[cfg(test)]`
//! code (a `#[cfg(test)] mod tests;` file included) is resolved to the file of the deepest
//! module it names. Paths in attributes' arguments (`#[arg(default_value_t = a::B)]`) and
//! in macro bodies are read from their tokens, so a cycle cannot close through them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// Each layer may import its own and the ones before it; a file belongs to the layer of the
/// longest prefix of its module path listed here.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "rules of the games (and the score every stepper's predictions share)",
        &["domain::games", "domain::prediction"],
    ),
    (
        "searches and exact solvers",
        &["domain::search", "domain::solve"],
    ),
    ("number formats", &["domain::numbers"]),
    ("learners", &["domain::learn", "domain"]),
    (
        "model files, key tables' shape, messages, what a tab has done",
        &[
            "persist",
            "tabkit::keymap",
            "tabkit::message",
            "tabkit::facts",
        ],
    ),
    (
        "tab ids (a leaf generated from the registry)",
        &["tabs::id"],
    ),
    (
        "settings: the file, each tab's sections, and lessons",
        &["config", "tabs::*::settings", "lesson"],
    ),
    ("the Tab contract and background jobs", &["tabkit"]),
    ("the drawing kit", &["widgets"]),
    ("the teaching parts every tab contains", &["components"]),
    ("the tabs and their registry", &["tabs"]),
    ("the app", &["app"]),
    ("the chrome", &["ui"]),
    ("terminal and event loop", &["shell"]),
    ("the SSH server", &["serve"]),
    ("the command line", &["cli"]),
    ("the crate root", &[""]),
];

/// A module path, `a::b::c`, the crate root being empty.
type Module = String;

fn module_of(src: &Path, file: &Path) -> Module {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The paths a file names, as segments, with `use` trees expanded.
#[derive(Default)]
struct Paths(Vec<Vec<String>>);

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta.require_list().is_ok_and(|l| {
                let tokens = l.tokens.to_string();
                tokens == "test" || tokens.starts_with("test,") || tokens.contains("test ,")
            })
    })
}

fn expand(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            expand(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix.clone();
            if n.ident != "self" {
                path.push(n.ident.to_string());
            }
            out.push(path);
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            path.push(r.ident.to_string());
            out.push(path);
        }
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for item in &g.items {
                expand(item, prefix, out);
            }
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if !is_test_only(&item.attrs) {
            expand(&item.tree, &mut Vec::new(), &mut self.0);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_impl(self, item);
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // A macro's own path (`crate::shown!`) is where `#[macro_export]` put it, the crate
        // root, not the file that defines it; its body is read as tokens.
        token_paths(mac.tokens.clone(), &mut self.0);
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        // `#[arg(default_value_t = super::arena::X)]`: syn leaves a list's tokens unparsed.
        if let syn::Meta::List(list) = &attr.meta {
            token_paths(list.tokens.clone(), &mut self.0);
        }
        syn::visit::visit_attribute(self, attr);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.segments.len() > 1 {
            self.0
                .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        syn::visit::visit_path(self, path);
    }
}

/// Every path of two or more segments written in `tokens` (`super::arena::X`,
/// `$crate::tabkit::keymap::Key`), looked for in nested groups too: what attributes' and
/// macros' unparsed arguments name.
fn token_paths(tokens: proc_macro2::TokenStream, out: &mut Vec<Vec<String>>) {
    use proc_macro2::{Spacing, TokenTree};
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut path: Vec<String> = Vec::new();
    let mut i = 0;
    let flush = |path: &mut Vec<String>, out: &mut Vec<Vec<String>>| {
        if path.len() > 1 {
            out.push(std::mem::take(path));
        }
        path.clear();
    };
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Ident(ident) => {
                path.push(ident.to_string());
                let separator = matches!(
                    (tokens.get(i + 1), tokens.get(i + 2)),
                    (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                        if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
                );
                if separator {
                    i += 3;
                    continue;
                }
                flush(&mut path, out);
            }
            TokenTree::Group(group) => {
                flush(&mut path, out);
                token_paths(group.stream(), out);
            }
            _ => flush(&mut path, out),
        }
        i += 1;
    }
    flush(&mut path, out);
}

/// The module a path names, resolved from `module`, if it is one of the crate's.
fn resolve(module: &str, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let here: Vec<&str> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").collect()
    };
    let mut base: Vec<String>;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base = Vec::new();
            rest = &path[1..];
        }
        Some("self") => {
            base = here.iter().map(ToString::to_string).collect();
            rest = &path[1..];
        }
        Some("super") => {
            base = here.iter().map(ToString::to_string).collect();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        Some(first) => {
            let child = if module.is_empty() {
                first.to_string()
            } else {
                format!("{module}::{first}")
            };
            if !modules.contains(&child) {
                return None;
            }
            base = here.iter().map(ToString::to_string).collect();
        }
        None => return None,
    }
    let mut deepest = base.join("::");
    for segment in rest {
        base.push(segment.clone());
        let candidate = base.join("::");
        if modules.contains(&candidate) {
            deepest = candidate;
        } else {
            break;
        }
    }
    Some(deepest)
}

/// Whether `module` is `prefix` or inside it; a `*` segment in `prefix` stands for any one.
fn within(module: &str, prefix: &str) -> bool {
    if prefix.is_empty() {
        return module.is_empty();
    }
    let module: Vec<&str> = module.split("::").collect();
    let prefix: Vec<&str> = prefix.split("::").collect();
    module.len() >= prefix.len() && prefix.iter().zip(&module).all(|(p, m)| *p == "*" || p == m)
}

fn layer_of(module: &str) -> usize {
    LAYERS
        .iter()
        .enumerate()
        .flat_map(|(index, (_, prefixes))| prefixes.iter().map(move |p| (p, index)))
        .filter(|(prefix, _)| within(module, prefix))
        .max_by_key(|(prefix, _)| prefix.split("::").count() + usize::from(!prefix.is_empty()))
        .map_or_else(
            || panic!("{module:?} is in no layer: add it to LAYERS"),
            |(_, index)| index,
        )
}

/// The modules `syntax` declares `#[cfg(test)] mod name;`: unit tests in files of their own
/// (`src/tabs/<tab>/tests.rs`), test code like a `#[cfg(test)]` block, so not checked.
fn test_only_children(module: &str, syntax: &syn::File) -> Vec<Module> {
    syntax
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if m.content.is_none() && is_test_only(&m.attrs) => {
                Some(if module.is_empty() {
                    m.ident.to_string()
                } else {
                    format!("{module}::{}", m.ident)
                })
            }
            _ => None,
        })
        .collect()
}

/// Whether `module` is one of `tests` (test-only modules) or inside one.
fn is_test_code(module: &str, tests: &BTreeSet<Module>) -> bool {
    tests
        .iter()
        .any(|test| module == test || module.starts_with(&format!("{test}::")))
}

/// Every file's imports, as module → modules it names.
fn imports() -> BTreeMap<Module, BTreeSet<Module>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(&src, f)).collect();
    let parsed: Vec<(&PathBuf, Module, syn::File)> = files
        .iter()
        .map(|file| {
            let syntax = syn::parse_file(&fs::read_to_string(file).unwrap()).unwrap();
            (file, module_of(&src, file), syntax)
        })
        .collect();
    let test_only: BTreeSet<Module> = parsed
        .iter()
        .flat_map(|(_, module, syntax)| test_only_children(module, syntax))
        .collect();
    let mut graph = BTreeMap::new();
    for (file, module, syntax) in parsed {
        if module == "main" || file.ends_with("main.rs") {
            continue;
        }
        if is_test_code(&module, &test_only) {
            continue;
        }
        let mut paths = Paths::default();
        paths.visit_file(&syntax);
        let targets: BTreeSet<Module> = paths
            .0
            .iter()
            .filter_map(|path| resolve(&module, path, &modules))
            .filter(|target| *target != module)
            .collect();
        graph.insert(module, targets);
    }
    graph
}

#[test]
fn no_file_imports_a_layer_above_its_own() {
    let mut upward = Vec::new();
    for (module, targets) in imports() {
        for target in targets {
            let (from, to) = (layer_of(&module), layer_of(&target));
            if to > from {
                upward.push(format!(
                    "{module} ({}) imports {target} ({})",
                    LAYERS[from].0, LAYERS[to].0
                ));
            }
        }
    }
    assert!(upward.is_empty(), "imports upward:\n{}", upward.join("\n"));
}

/// Depth-first search from `node`; an edge back to a node on the stack closes a cycle.
fn visit<'a>(
    node: &'a str,
    graph: &'a BTreeMap<Module, BTreeSet<Module>>,
    state: &mut BTreeMap<&'a str, u8>,
    stack: &mut Vec<&'a str>,
    cycles: &mut Vec<String>,
) {
    state.insert(node, 1);
    stack.push(node);
    for next in graph.get(node).into_iter().flatten() {
        match state.get(next.as_str()) {
            Some(1) => {
                let start = stack.iter().position(|&m| m == next).unwrap();
                let mut cycle: Vec<&str> = stack[start..].to_vec();
                cycle.push(next);
                cycles.push(cycle.join(" → "));
            }
            Some(_) => {}
            None => visit(next, graph, state, stack, cycles),
        }
    }
    stack.pop();
    state.insert(node, 2);
}

#[test]
fn no_two_files_import_each_other_even_round_a_loop() {
    let graph = imports();
    let mut cycles = Vec::new();
    let mut state: BTreeMap<&str, u8> = BTreeMap::new(); // 1 on the stack, 2 done
    let mut stack: Vec<&str> = Vec::new();
    for module in graph.keys() {
        if !state.contains_key(module.as_str()) {
            visit(module, &graph, &mut state, &mut stack, &mut cycles);
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_check_sees_imports() {
    // A resolver that saw nothing would pass both tests: make sure it sees known edges.
    let graph = imports();
    assert!(graph["app"].contains("tabs"), "{:?}", graph["app"]);
    assert!(graph["tabs::tictactoe::view"].contains("widgets"));
    assert!(graph["domain::search::recursive"].contains("domain::games"));
    // A tab's unit tests (`#[cfg(test)] mod tests;`) drive the whole app; they are not
    // checked, the tab's own files are.
    assert!(!graph.contains_key("tabs::tictactoe::tests"));
    assert!(graph.contains_key("tabs::tictactoe::state"));
    assert_eq!(layer_of("tabs::id"), 5);
    assert_eq!(layer_of("components::tree_search::pane"), 9);
    assert_eq!(layer_of("tabs::tictactoe::view"), 10);
    assert_eq!(layer_of("domain::learn::nim_net"), 3);
    assert_eq!(layer_of("tabs::multipile::settings"), layer_of("config"));
    assert_eq!(layer_of("tabs::multipile::state"), 10);
    assert_eq!(layer_of(""), LAYERS.len() - 1);
}

/// The methods of `trait name` in `file` (under `src/`).
fn trait_methods(file: &str, name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(file);
    let syntax = syn::parse_file(&fs::read_to_string(path).unwrap()).unwrap();
    syntax
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Trait(t) if t.ident == name => Some(t),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no trait {name} in {file}"))
        .items
        .iter()
        .filter_map(|item| match item {
            syn::TraitItem::Fn(f) => Some(f.sig.ident.to_string()),
            _ => None,
        })
        .collect()
}

/// The contract every tab fulfils stays small: what a class reads of a tab is its own
/// trait (`ClassSide`), and the teaching parts are components the tab holds.
#[test]
fn the_tab_contract_has_at_most_20_methods() {
    let methods = trait_methods("tabkit/tab.rs", "Tab");
    assert!(methods.contains(&"update".to_string()), "{methods:?}");
    assert!(
        methods.len() <= 20,
        "Tab has {} methods: {methods:?}",
        methods.len()
    );
}

/// The most lines a source file may have before its tests.
const MOST_LINES: usize = 900;

/// The modules that are tests only (`#[cfg(test)] mod name;` files and what is under them).
fn test_only_modules(src: &Path, files: &[PathBuf]) -> BTreeSet<Module> {
    files
        .iter()
        .flat_map(|file| {
            let syntax = syn::parse_file(&fs::read_to_string(file).unwrap()).unwrap();
            test_only_children(&module_of(src, file), &syntax)
        })
        .collect()
}

#[test]
fn no_source_file_is_over_900_lines_before_its_tests() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let tests = test_only_modules(&src, &files);
    let mut long = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        if is_test_code(&module, &tests) {
            continue;
        }
        let text = fs::read_to_string(file).unwrap();
        // The tests are the `#[cfg(test)] mod …` at the end; a test-only helper above it
        // still counts.
        let lines: Vec<&str> = text.lines().collect();
        let before_tests = lines
            .windows(2)
            .position(|pair| {
                pair[0].trim() == "#[cfg(test)]" && pair[1].trim_start().starts_with("mod ")
            })
            .unwrap_or(lines.len());
        if before_tests > MOST_LINES {
            long.push(format!("{} ({before_tests} lines)", file.display()));
        }
    }
    assert!(
        long.is_empty(),
        "over {MOST_LINES} lines before the tests: split along a seam of meaning\n{}",
        long.join("\n")
    );
}

/// The tab folders: `src/tabs/<tab>/`.
fn tab_folders() -> Vec<String> {
    let tabs = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tabs");
    let mut names: Vec<String> = fs::read_dir(tabs)
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Outside a tab's folder only the tab itself (its `mod.rs`) is named, by the registry;
/// the one exception is the config, whose one field per tab is the tab's `[section]`
/// (`tabs/<tab>/settings.rs`, in the config's layer).
#[test]
fn nothing_outside_a_tab_folder_names_the_tabs_modules() {
    let graph = imports();
    let mut named = Vec::new();
    for tab in tab_folders() {
        let folder = format!("tabs::{tab}");
        for (module, targets) in &graph {
            if within(module, &folder) {
                continue;
            }
            for target in targets
                .iter()
                .filter(|t| t.starts_with(&format!("{folder}::")))
            {
                if module == "config" && *target == format!("{folder}::settings") {
                    continue;
                }
                named.push(format!("{module} names {target}"));
            }
        }
    }
    assert!(
        named.is_empty(),
        "a tab's modules are its own: outside its folder, name only the tab\n{}",
        named.join("\n")
    );
    // The check sees such names: the registry names every tab.
    assert!(
        graph["tabs"].contains("tabs::tictactoe"),
        "{:?}",
        graph["tabs"]
    );
}
