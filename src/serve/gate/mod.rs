//! Who may start logging in. A connection that has not logged in yet costs the server a
//! handshake and, held silent, a place; so, as OpenSSH does, those connections get their
//! own budget, apart from the logged-in ones (which they can never starve). A class
//! arrives in a burst from one address while strangers may be trying to fill that
//! budget, so every part of it is shared out by address (an IPv6 /64):
//!
//! - **Handshakes.** Per address at most `per_source` at once; more connections from it
//!   wait their turn, unanswered, up to [`MAX_WAITING_PER_SOURCE`], so a class behind one
//!   NAT address gets in one after another. In total, `MaxStartups`' random early drop:
//!   from `start` handshakes on, a new one is refused with a chance of `rate`%, rising to
//!   100% at `full`.
//! - **Known addresses.** An address a login succeeded from in the last [`KNOWN_FOR`]
//!   has a handshake budget of the same size of its own, which strangers cannot fill.
//! - **The class code prompt.** A connection shown the prompt waits for a person, not a
//!   program: it gives its handshake place to the next from its address and waits in a
//!   pool of its own, up to [`MAX_AT_PROMPT_PER_SOURCE`] per address and `full` in all.
//! - **Fair shares.** When a pool (handshakes, the prompt, the queue) is full, a newcomer
//!   whose address holds at least two places fewer there than another address takes the
//!   oldest place of the address holding the most: strangers holding many places cannot
//!   keep out an address that holds few.
//! - **Failures.** A connection that tried to log in and ended without counts against its
//!   address; past `max_failures_per_minute` the address gets one handshake at a time and
//!   no prompt pool (a person still gets in; a program guessing codes is slowed), until a
//!   login from it succeeds. A connection that never tried (a bare connect-and-close, one
//!   closed at the host key question) costs little: only far more of those a minute
//!   refuse the address.
//!
//! [`Gate`] is the bookkeeping, with the time passed in and its random choices drawn
//! from a seed; [`Admissions`] shares it between connections and wakes the waiting ones.

mod admissions;
mod ledger;

pub use admissions::{Admissions, Pending};
pub use ledger::{
    Admission, Admitted, Gate, KNOWN_FOR, MAX_AT_PROMPT_PER_SOURCE, MAX_WAITING_PER_SOURCE, Pool,
    Refusal,
};
