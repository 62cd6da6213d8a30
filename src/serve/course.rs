//! The server's files as the teacher's room uses them: the course read again (`r`, as
//! SIGHUP) and the class moved from lesson to lesson (`n`, `p`). Its own file so that the
//! room (`room.rs`) knows only the [`Files`] trait, not the server it belongs to.

use super::room::Files;
use super::shared::Shared;
use crate::app::room::{Course, Setup};
use std::sync::{Arc, Weak};

/// The files of a running server. It holds the server weakly: the room is part of the
/// server, and must not keep it alive.
pub struct ServerFiles {
    shared: Weak<Shared>,
}

impl ServerFiles {
    /// The files of `shared`: its course, read again with the reload it is given.
    pub fn new(shared: Weak<Shared>) -> Self {
        Self { shared }
    }

    fn shared(&self) -> Result<Arc<Shared>, String> {
        self.shared
            .upgrade()
            .ok_or_else(|| "the server is ending".to_string())
    }
}

impl Files for ServerFiles {
    fn reload(&self) -> Result<(String, Setup), String> {
        let shared = self.shared()?;
        let reload = (shared.reload.get())
            .cloned()
            .ok_or("this server reads its files only at start")?;
        let words = shared.reload(&reload)?;
        Ok((words, shared.current().setup().clone()))
    }

    fn go_to(&self, at: usize) -> Result<(String, Setup), String> {
        let shared = self.shared()?;
        let words = shared.go_to(at)?;
        Ok((words, shared.current().setup().clone()))
    }

    fn course(&self) -> Course {
        self.shared
            .upgrade()
            .map(|shared| shared.current().course())
            .unwrap_or_default()
    }

    fn collect_note(&self) -> Option<String> {
        self.shared.upgrade()?.collector.as_ref()?.note()
    }
}
