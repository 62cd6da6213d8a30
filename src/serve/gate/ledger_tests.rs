use super::*;

fn startups(start: u32, rate: u32, full: u32) -> Startups {
    Startups { start, rate, full }
}

fn ip(last: u8) -> IpAddr {
    [10, 0, 0, last].into()
}

fn ip2(third: u8, last: u8) -> IpAddr {
    [10, 0, third, last].into()
}

/// Admits a connection from `address` now, which must start at once: its ticket.
fn now(gate: &mut Gate, address: IpAddr, at: Instant) -> Admitted {
    match gate.arrive(address, at) {
        Ok(Admission::Now(admitted)) => admitted,
        other => panic!("{address} should start at once: {other:?}"),
    }
}

fn waits(gate: &mut Gate, address: IpAddr, at: Instant) -> bool {
    matches!(gate.arrive(address, at), Ok(Admission::Wait))
}

/// Whether `admitted` was told its place was taken.
fn was_cut(admitted: &Admitted) -> bool {
    let notified = admitted.cut.notified();
    tokio::pin!(notified);
    // A stored permit completes the future at once.
    notified
        .as_mut()
        .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()))
        .is_ready()
}

use std::future::Future as _;

#[test]
fn an_address_gets_its_handshakes_then_waits_then_is_refused() {
    let mut gate = Gate::new(startups(100, 30, 200), 2, 0, 1);
    let at = Instant::now();
    let first = now(&mut gate, ip(1), at);
    now(&mut gate, ip(1), at);
    for _ in 0..MAX_WAITING_PER_SOURCE {
        assert!(waits(&mut gate, ip(1), at));
    }
    assert_eq!(gate.arrive(ip(1), at).unwrap_err(), Refusal::TooManyWaiting);
    now(&mut gate, ip(2), at);
    assert!(gate.turn(ip(1), at).is_none(), "no place yet");
    gate.logged_in(first.ticket, ip(1), at);
    assert!(matches!(gate.turn(ip(1), at), Some(Ok(_))));
    assert!(gate.turn(ip(1), at).is_none());
    assert_eq!(gate.handshaking(), 3);
}

#[test]
fn below_start_nothing_is_dropped_and_at_full_everything_is() {
    let mut gate = Gate::new(startups(10, 30, 20), 100, 0, 7);
    let at = Instant::now();
    for last in 100..110 {
        now(&mut gate, ip(last), at);
    }
    // Each from an address of its own (one whose own place frees soon waits instead, and
    // one holding two fewer than another is never dropped).
    let mut dropped = 0;
    let mut last = 1;
    while gate.handshaking() < 20 {
        last += 1;
        if gate.arrive(ip(last), at).is_err() {
            dropped += 1;
        }
    }
    assert!(dropped > 0, "between start and full some are dropped");
    assert!(
        waits(&mut gate, ip(100), at),
        "at full, ip(100)'s next waits its turn"
    );
    // An address holding one fewer than another has no claim on a place.
    let mut even = Gate::new(startups(20, 30, 20), 1, 0, 7);
    for last in 0..20 {
        now(&mut even, ip(last), at);
    }
    assert_eq!(even.arrive(ip(20), at).unwrap_err(), Refusal::Full(20));
}

#[test]
fn the_drop_chance_at_start_is_the_rate() {
    let at = Instant::now();
    let mut refused = 0;
    for seed in 0..2000 {
        let mut gate = Gate::new(startups(1, 30, 100), 10, 0, seed);
        now(&mut gate, ip(1), at);
        refused += usize::from(gate.arrive(ip(2), at).is_err());
    }
    assert!(
        (500..700).contains(&refused),
        "about 30% of 2000: {refused}"
    );
}

/// Issue 35 §1, "many addresses": strangers holding every handshake place, four each,
/// used to refuse a class's first student; now it takes the oldest place of an address
/// holding the most, up to two fewer than them.
#[test]
fn a_full_handshake_pool_gives_the_oldest_place_of_the_biggest_holder_to_a_newcomer() {
    let (per_source, full) = (4, 128);
    let mut gate = Gate::new(startups(full, 30, full), per_source, 20, 1);
    let at = Instant::now();
    let mut strangers = Vec::new();
    for address in 1..=32 {
        for connection in 0..per_source {
            let when = at + Duration::from_millis(u64::from(address) * 10 + u64::from(connection));
            strangers.push(now(&mut gate, ip2(1, address), when).ticket);
        }
    }
    assert_eq!(gate.handshaking(), full);
    let later = at + Duration::from_secs(1);
    let class = ip(200);
    let first = now(&mut gate, class, later);
    assert_eq!(gate.handshaking(), full, "one stranger's place went");
    assert!(!gate.entries.contains_key(&strangers[0]), "the oldest went");
    now(&mut gate, class, later);
    now(&mut gate, class, later);
    // No claim at 3 against 4: it waits for one of its own places.
    assert!(waits(&mut gate, class, later));
    assert!(gate.turn(class, later).is_none());
    gate.logged_in(first.ticket, class, later);
    assert!(gate.is_known(class, later));
}

#[test]
fn a_cut_connection_is_told_once_and_its_end_counts_nothing_twice() {
    let mut gate = Gate::new(startups(2, 100, 2), 4, 20, 1);
    let at = Instant::now();
    let old = now(&mut gate, ip(1), at);
    now(&mut gate, ip(1), at + Duration::from_millis(1));
    now(&mut gate, ip(2), at + Duration::from_millis(2));
    assert!(was_cut(&old));
    // The cut connection ends afterwards: its place was freed already.
    gate.failed(old.ticket, ip(1), true, at);
    assert_eq!(gate.handshaking(), 2);
}

#[test]
fn failed_logins_slow_an_address_down_and_a_login_from_it_lifts_that() {
    let mut gate = Gate::new(startups(100, 30, 200), 4, 3, 1);
    let at = Instant::now();
    for _ in 0..50 {
        let admitted = now(&mut gate, ip(1), at);
        gate.logged_in(admitted.ticket, ip(1), at);
    }
    for _ in 0..3 {
        let admitted = now(&mut gate, ip(1), at);
        gate.failed(admitted.ticket, ip(1), true, at);
    }
    // Over the limit: one handshake at a time, and it keeps its place at the prompt.
    let first = now(&mut gate, ip(1), at);
    assert!(waits(&mut gate, ip(1), at));
    assert_eq!(gate.to_prompt(first.ticket, at), Some(Pool::Known));
    now(&mut gate, ip(2), at);
    // A right code from the address: everyone from it goes on as before.
    gate.logged_in(first.ticket, ip(1), at);
    assert!(matches!(gate.turn(ip(1), at), Some(Ok(_))));
    for _ in 0..3 {
        now(&mut gate, ip(1), at);
    }
}

/// Issue 35 §1: twenty connect-and-close, or twenty closed at the host key question, from
/// the class's own address used to lock the class out for a minute.
#[test]
fn connections_that_never_tried_to_log_in_do_not_count_as_failures() {
    let limit = 20;
    let mut gate = Gate::new(startups(100, 30, 200), 4, limit, 1);
    let at = Instant::now();
    for _ in 0..2 * limit {
        let admitted = now(&mut gate, ip(1), at);
        gate.failed(admitted.ticket, ip(1), false, at);
    }
    for _ in 0..4 {
        now(&mut gate, ip(1), at);
    }
    // Far more than that is refused, for the minute.
    let mut gate = Gate::new(startups(100, 30, 200), 4, limit, 1);
    for _ in 0..limit * CHURN_FACTOR {
        let admitted = now(&mut gate, ip(1), at);
        gate.failed(admitted.ticket, ip(1), false, at);
    }
    assert_eq!(
        gate.arrive(ip(1), at).unwrap_err(),
        Refusal::Churning(limit * CHURN_FACTOR)
    );
    let later = at + Duration::from_secs(61);
    now(&mut gate, ip(1), later);
}

#[test]
fn an_ipv6_64_is_one_source() {
    let mut gate = Gate::new(startups(100, 30, 200), 1, 0, 1);
    let at = Instant::now();
    let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
    let two: IpAddr = "2001:db8:1:2::2".parse().unwrap();
    now(&mut gate, one, at);
    assert!(waits(&mut gate, two, at));
    let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
    now(&mut gate, other, at);
}

/// Issue 35 §1, "the shared waiting pool": two strangers' addresses with 64 waiting each
/// used to fill it, and the class's connections were refused.
#[test]
fn a_full_queue_gives_a_place_of_the_longest_queue_to_a_newcomer() {
    // The queue holds four times full: 128.
    let full = 32;
    let mut gate = Gate::new(startups(full, 30, full), 4, 20, 1);
    let at = Instant::now();
    for stranger in [ip(1), ip(2)] {
        for _ in 0..4 {
            now(&mut gate, stranger, at);
        }
        for _ in 0..MAX_WAITING_PER_SOURCE {
            assert!(waits(&mut gate, stranger, at));
        }
    }
    assert_eq!(gate.waiting, 4 * full);
    let class = ip(3);
    for _ in 0..4 {
        now(&mut gate, class, at);
    }
    for student in 0..40 {
        assert!(waits(&mut gate, class, at), "student {student}");
    }
    assert_eq!(gate.waiting, 4 * full, "the queue stays bounded");
    // Forty of the strangers' waiting connections give their places up as they look.
    let mut evicted = 0;
    for stranger in [ip(1), ip(2)] {
        while let Some(Err(Refusal::Evicted)) = gate.turn(stranger, at) {
            evicted += 1;
        }
    }
    assert_eq!(evicted, 40);
    assert_eq!(gate.waiting, 4 * full);
}

#[test]
fn a_waiter_giving_up_while_its_queue_owes_a_place_pays_that_instead() {
    // The queue holds four times full: 8.
    let mut gate = Gate::new(startups(100, 30, 2), 1, 0, 1);
    let at = Instant::now();
    now(&mut gate, ip(1), at);
    for _ in 0..8 {
        assert!(waits(&mut gate, ip(1), at));
    }
    now(&mut gate, ip(2), at);
    assert!(
        waits(&mut gate, ip(2), at),
        "takes a place of ip(1)'s queue"
    );
    for _ in 0..8 {
        gate.stop_waiting(ip(1));
    }
    gate.stop_waiting(ip(2));
    assert_eq!(gate.waiting, 0);
    assert!(gate.sources.get(&ip(1)).is_none_or(|s| s.evicted == 0));
}

#[test]
fn a_connection_at_the_prompt_gives_its_handshake_place_to_the_next_while_the_pool_has_room() {
    let (per_source, full) = (2, 200);
    let mut gate = Gate::new(startups(100, 30, full), per_source, 3, 1);
    let at = Instant::now();
    // 40 from one address: two handshake at a time, each moving on to the prompt.
    let mut typing = Vec::new();
    for _ in 0..40 {
        let admitted = now(&mut gate, ip(1), at);
        assert_eq!(gate.to_prompt(admitted.ticket, at), Some(Pool::Prompt));
        typing.push(admitted.ticket);
    }
    assert_eq!((gate.handshaking(), gate.at_prompt()), (0, 40));
    for ticket in typing {
        gate.logged_in(ticket, ip(1), at);
    }
    assert_eq!(gate.at_prompt(), 0);
    assert!(gate.is_empty(), "nothing left behind");
    // Past its address's share of the pool, a connection keeps its handshake place.
    let mut parked = Vec::new();
    for _ in 0..MAX_AT_PROMPT_PER_SOURCE {
        let admitted = now(&mut gate, ip(2), at);
        assert_eq!(gate.to_prompt(admitted.ticket, at), Some(Pool::Prompt));
        parked.push(admitted.ticket);
    }
    let extra = now(&mut gate, ip(2), at);
    assert_eq!(gate.to_prompt(extra.ticket, at), Some(Pool::Handshake));
    assert_eq!(gate.handshaking(), 1);
}

/// Issue 35 §1, "the class code prompt needs no code to sit at": 64 parked at the prompt
/// from each of two addresses used to fill the pool.
#[test]
fn a_full_prompt_pool_gives_the_oldest_place_of_the_biggest_holder_to_a_newcomer() {
    let full = 128;
    let mut gate = Gate::new(startups(100, 30, full), 4, 20, 1);
    let at = Instant::now();
    let mut parked = Vec::new();
    for stranger in [ip(1), ip(2)] {
        for _ in 0..MAX_AT_PROMPT_PER_SOURCE {
            let admitted = now(&mut gate, stranger, at);
            assert_eq!(gate.to_prompt(admitted.ticket, at), Some(Pool::Prompt));
            parked.push(admitted);
        }
    }
    assert_eq!(gate.at_prompt(), full);
    let later = at + Duration::from_secs(1);
    for student in 0..40 {
        let admitted = now(&mut gate, ip(3), later);
        assert_eq!(
            gate.to_prompt(admitted.ticket, later),
            Some(Pool::Prompt),
            "student {student}"
        );
    }
    assert_eq!(gate.at_prompt(), full);
    assert_eq!(parked.iter().filter(|a| was_cut(a)).count(), 40);
}

#[test]
fn a_known_address_has_handshake_places_strangers_cannot_fill() {
    let full = 16;
    let mut gate = Gate::new(startups(8, 30, full), 1, 0, 1);
    let at = Instant::now();
    let class = ip(200);
    let first = now(&mut gate, class, at);
    gate.logged_in(first.ticket, class, at);
    // One place each from as many addresses as the pool holds.
    for last in 0..=255 {
        let _ = gate.arrive(ip2(1, last), at);
    }
    assert_eq!(gate.held[Pool::Handshake.index()], full);
    assert_eq!(gate.arrive(ip2(2, 1), at).unwrap_err(), Refusal::Full(full));
    let student = now(&mut gate, class, at);
    assert_eq!(gate.pool_of(student.ticket), Some(Pool::Known));
    assert!(!gate.is_known(class, at + KNOWN_FOR));
}

#[test]
fn a_known_address_queues_apart_from_strangers() {
    let mut gate = Gate::new(startups(100, 30, 1), 1, 0, 1);
    let at = Instant::now();
    let class = ip(9);
    let first = now(&mut gate, class, at);
    gate.logged_in(first.ticket, class, at);
    now(&mut gate, ip(1), at);
    for _ in 0..4 {
        assert!(waits(&mut gate, ip(1), at));
    }
    now(&mut gate, class, at);
    for _ in 0..MAX_WAITING_PER_SOURCE {
        assert!(waits(&mut gate, class, at));
    }
    assert_eq!(gate.waiting, 4, "the strangers' queue is as it was");
}
