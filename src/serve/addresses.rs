//! The addresses students can connect to when the server listens on every address
//! (`0.0.0.0` or `::`): the machine's own, read from its network interfaces (`if-addrs`),
//! for the banner to print in place of a `HOST` the teacher would have to look up.

use std::net::IpAddr;

/// An address of this machine that students can use, and the interface it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reachable {
    /// The address.
    pub ip: IpAddr,
    /// Its interface's name (`eth0`, `wlan0`), so the teacher can tell networks apart.
    pub interface: String,
}

/// The addresses of this machine that a server listening on `listen` answers on, best
/// first (see [`reachable`]); `Err` with the system's words when they cannot be read.
///
/// # Errors
/// When the interfaces cannot be listed.
pub fn of_this_machine(listen: IpAddr) -> Result<Vec<Reachable>, String> {
    let found = if_addrs::get_if_addrs().map_err(|error| error.to_string())?;
    let found = found.into_iter().map(|interface| Reachable {
        ip: interface.ip(),
        interface: interface.name,
    });
    Ok(reachable(listen, found))
}

/// Of the interface addresses `found` (in the system's order), those a server on the
/// unspecified `listen` answers on and a student can type: IPv4 for `0.0.0.0`, IPv4 and
/// IPv6 for `::` (a dual-stack socket); never IPv6 link-local ones (they need an
/// interface suffix), and loopback only when there is nothing else. IPv4 first, each
/// address once.
pub fn reachable(listen: IpAddr, found: impl IntoIterator<Item = Reachable>) -> Vec<Reachable> {
    let mut usable: Vec<Reachable> = Vec::new();
    for candidate in found {
        let family_ok = listen.is_ipv6() || candidate.ip.is_ipv4();
        let link_local = matches!(candidate.ip, IpAddr::V6(v6) if v6.is_unicast_link_local());
        if family_ok && !link_local && !usable.iter().any(|seen| seen.ip == candidate.ip) {
            usable.push(candidate);
        }
    }
    if usable.iter().any(|r| !r.ip.is_loopback()) {
        usable.retain(|r| !r.ip.is_loopback());
    }
    usable.sort_by_key(|r| r.ip.is_ipv6());
    usable
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(interface: &str, ip: &str) -> Reachable {
        Reachable {
            ip: ip.parse().unwrap(),
            interface: interface.into(),
        }
    }

    fn machine() -> Vec<Reachable> {
        vec![
            at("lo", "127.0.0.1"),
            at("lo", "::1"),
            at("wlan0", "fe80::1c2d:3e4f:5a6b:7c8d"),
            at("wlan0", "2001:db8::20"),
            at("wlan0", "192.168.1.20"),
            at("docker0", "172.17.0.1"),
        ]
    }

    #[test]
    fn every_ipv4_address_but_loopback_for_0_0_0_0_in_the_system_s_order() {
        let listen = "0.0.0.0".parse().unwrap();
        assert_eq!(
            reachable(listen, machine()),
            [at("wlan0", "192.168.1.20"), at("docker0", "172.17.0.1")]
        );
    }

    #[test]
    fn ipv6_too_for_a_dual_stack_listen_but_never_link_local() {
        let listen = "::".parse().unwrap();
        assert_eq!(
            reachable(listen, machine()),
            [
                at("wlan0", "192.168.1.20"),
                at("docker0", "172.17.0.1"),
                at("wlan0", "2001:db8::20"),
            ]
        );
    }

    #[test]
    fn loopback_only_when_nothing_else_is_there_and_each_address_once() {
        let listen = "0.0.0.0".parse().unwrap();
        let alone = [
            at("lo", "127.0.0.1"),
            at("lo", "::1"),
            at("lo", "127.0.0.1"),
        ];
        assert_eq!(reachable(listen, alone), [at("lo", "127.0.0.1")]);
        assert_eq!(reachable(listen, []), []);
    }
}
