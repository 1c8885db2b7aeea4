"""Every keyword of keepalived.conf(5) (keepalived 2.2.7, Debian 12's; and the older spellings
keepalived still reads) in the blocks the lab reads, each with what the lab does with it:
  used          the importer turns it into the lab's settings (keepalived_import.py says how)
  no bearing    it cannot change when the dead primary is taken out or what its flows see (why)
  not modelled  it might, and the lab does not stand in for it (named on every import that has it)
  refused       the lab cannot stand in for what it says (the importer refuses at its line, why)
A keyword in none of these tables is not keepalived's: refused at its line with the nearest one."""
import difflib

USED, NO_BEARING, NOT_MODELLED, REFUSED = "used", "no bearing", "not modelled", "refused"


def each(words: str, verdict: str, why: str) -> dict[str, tuple[str, str]]:
    return {word: (verdict, why) for word in words.split()}


TIMERS = "how soon the check fails: the lab's model and its director take it"
CHECKERS = ("TCP_CHECK", "HTTP_GET", "SSL_GET", "SMTP_CHECK", "MISC_CHECK")
OTHER_CHECKERS = ("DNS_CHECK", "BFD_CHECK", "PING_CHECK", "UDP_CHECK", "FILE_CHECK")

GLOBAL_DEFS = {
    **each("lvs_timeouts", NO_BEARING, "the director forgets an idle flow after it: the answer's connection is busy; "
                                        "the replay's director runs with it"),
    **each("lvs_sync_daemon", USED, "a backup director gets the connection table"),
    **each("lvs_flush lvs_flush_on_stop", NO_BEARING, "clears IPVS when keepalived starts or stops, not at a death"),
    **each("router_id notification_email notification_email_from smtp_server smtp_helo_name smtp_connect_timeout "
            "smtp_alert smtp_alert_vrrp smtp_alert_checker checker_log_all_failures no_email_faults no_checker_emails "
            "rs_init_notifies", NO_BEARING, "keepalived's name, mail and logs"),
    **each("net_namespace net_namespace_ipvs namespace_with_ipsets instance use_pid_dir linkbeat_use_polling "
            "child_wait_time tmp_config_directory config_save_dir process_names process_name vrrp_process_name "
            "checker_process_name bfd_process_name use_symlink_paths set_supplementary_groups startup_script "
            "startup_script_timeout shutdown_script shutdown_script_timeout script_user enable_script_security umask "
            "random_seed reload_check_config include_check reload_time_file reload_repeat reload_file "
            "data_use_instance state_file_location stats_file_location json_file_location json_version "
            "iproute_usr_dir iproute_etc_dir dynamic_interfaces", NO_BEARING, "keepalived's processes and files"),
    **each("vrrp_priority checker_priority bfd_priority vrrp_no_swap checker_no_swap bfd_no_swap vrrp_cpu_affinity "
            "checker_cpu_affinity bfd_cpu_affinity vrrp_rt_priority checker_rt_priority bfd_rt_priority "
            "vrrp_rlimit_rttime checker_rlimit_rttime bfd_rlimit_rttime", NO_BEARING,
            "how keepalived's processes are scheduled"),
    **each("snmp_socket enable_snmp_vrrp enable_snmp_checker enable_snmp_rfc enable_snmp_rfcv2 enable_snmp_rfcv3 "
            "enable_traps snmp_vs_stats_update_interval snmp_rs_stats_update_interval enable_dbus dbus_service_name "
            "dbus_no_interface_name notify_fifo notify_fifo_script vrrp_notify_fifo vrrp_notify_fifo_script "
            "lvs_notify_fifo lvs_notify_fifo_script fifo_write_vrrp_states_on_reload", NO_BEARING,
            "keepalived's reports to other programs"),
    **each("vrrp_netlink_cmd_rcv_bufs vrrp_netlink_cmd_rcv_bufs_force vrrp_netlink_monitor_rcv_bufs "
            "vrrp_netlink_monitor_rcv_bufs_force lvs_netlink_cmd_rcv_bufs lvs_netlink_cmd_rcv_bufs_force "
            "lvs_netlink_monitor_rcv_bufs lvs_netlink_monitor_rcv_bufs_force process_monitor_rcv_bufs "
            "process_monitor_rcv_bufs_force vrrp_rx_bufs_policy vrrp_rx_bufs_multiplier", NO_BEARING,
            "keepalived's socket buffers"),
    **each("vrrp_mcast_group4 vrrp_mcast_group6 default_interface vrrp_garp_master_repeat vrrp_garp_master_delay "
            "vrrp_garp_lower_prio_repeat vrrp_garp_lower_prio_delay vrrp_garp_master_refresh "
            "vrrp_garp_master_refresh_repeat vrrp_garp_interval vrrp_gna_interval vrrp_min_garp vrrp_garp_extra_if "
            "vrrp_down_timer_adverts vrrp_lower_prio_no_advert vrrp_higher_prio_send_advert vrrp_version "
            "v3_checksum_as_v2 nftables nftables_priority nftables_counters nftables_ifindex vrrp_iptables "
            "vrrp_ipsets vrrp_check_unicast_src vrrp_skip_check_adv_addr vrrp_strict vrrp_notify_priority_changes "
            "max_auto_priority min_auto_priority_delay vrrp_delay_after_boot vrrp_startup_delay log_unknown_vrids "
            "vmac_prefix vmac_addr_prefix", NO_BEARING, "VRRP between directors: the replayed death is the database's"),
    **each("nftables_ipvs nftables_ipvs_priority nftables_ipvs_start_fwmark", NO_BEARING,
            "marks for virtual server groups; the lab has one virtual server"),
}

VIRTUAL_SERVER = {
    **each("delay_loop connect_timeout retry nb_get_retry delay_before_retry", USED, TIMERS),
    **each("lvs_method lb_kind", USED, "NAT, as the lab's director (DR and TUN refused)"),
    **each("protocol", USED, "TCP (UDP and SCTP refused)"),
    **each("lvs_sched lb_algo", USED, "no choice to make: the lab's director sends to one server at a time"),
    **each("sorry_server", USED, "the lab's replica"),
    **each("real_server", USED, "the first is the lab's primary; a second, without a sorry server, its replica"),
    **each("inhibit_on_failure", USED, "weight 0 instead of deleting a failed server"),
    **each("flag-1 flag-2 flag-3 sh-port sh-fallback mh-port mh-fallback ops", NO_BEARING,
            "a scheduler's choices: one server at a time"),
    **each("smtp_alert virtualhost snmp_name ip_family nat_mask", NO_BEARING, "mail, names, an IPv4 lab"),
    **each("alpha omega warmup ha_suspend", NO_BEARING, "when keepalived starts, stops or lacks the VIP"),
    **each("persistence_engine persistence_timeout persistence_granularity", NOT_MODELLED,
            "persistence templates: new connections from a client go to its server while its template lasts"),
    **each("quorum hysteresis quorum_up quorum_down", NOT_MODELLED, "the lab runs quorum 1: the sorry server goes in "
                                                                     "when the primary is out"),
    **each("sorry_server_inhibit sorry_server_lvs_method", NOT_MODELLED, "the sorry server's own handling"),
}

REAL_SERVER = {
    **each("delay_loop connect_timeout retry nb_get_retry delay_before_retry", USED, TIMERS),
    **each("inhibit_on_failure", USED, "weight 0 instead of deleting a failed server"),
    **each("lvs_method lb_kind", USED, "NAT, as the lab's director (DR and TUN refused)"),
    **each(" ".join(CHECKERS), USED, "the first is the lab's check"),
    **each(" ".join(OTHER_CHECKERS), NOT_MODELLED, "a check the lab does not run (it runs TCP_CHECK or MISC_CHECK)"),
    **each("weight smtp_alert virtualhost snmp_name alpha warmup", NO_BEARING,
            "one server at a time; mail, names; startup"),
    **each("notify_up notify_down", NOT_MODELLED, "your scripts (the lab's notify_down promotes its replica)"),
    **each("uthreshold lthreshold", NOT_MODELLED, "connection limits on the server"),
}

CHECKER = {
    **each("delay_loop connect_timeout retry nb_get_retry delay_before_retry", USED, TIMERS),
    **each("misc_timeout", USED, "when keepalived kills the script: the check fails then"),
    **each("connect_ip connect_port bindto bind_if bind_port fwmark", NO_BEARING,
            "where the check connects from and to: the lab checks the primary's own port"),
    **each("alpha warmup log_all_failures", NO_BEARING, "startup; logs"),
    **each("http_protocol url path digest status_code regex regex_no_match regex_options regex_stack "
            "regex_min_offset regex_max_offset tls_compliant enable_sni sni_name fast_recovery helo_name host "
            "type name payload require_reply min_reply_length max_reply_length track_file dynamic weight",
            NOT_MODELLED, "what the check asks of a live server: the lab's asks a connect (or a MySQL handshake)"),
    **each("misc_path misc_dynamic user", NOT_MODELLED, "your script: the lab runs its own MySQL handshake"),
}

VRRP_INSTANCE = {
    **each("advert_int", USED, "how soon a backup director takes the VIP"),
    **each("nopreempt preempt", USED, "whether a restarted master takes the VIP back"),
    **each("state interface vrf netlink_notify_msg use_vmac use_vmac_addr vmac_xmit_base use_ipvlan native_ipv6 "
            "dont_track_primary track_interface track_script track_file track_process track_bfd mcast_src_ip "
            "unicast_src_ip mcast_dst_ip track_src_ip version check_unicast_src unicast_peer unicast_fault_no_peer "
            "unicast_ttl old_unicast_checksum v3_checksum_as_v2 garp_master_delay garp_master_repeat "
            "garp_lower_prio_delay garp_lower_prio_repeat garp_master_refresh garp_master_refresh_repeat garp_extra_if "
            "down_timer_adverts timer_expired_backup lower_prio_no_advert higher_prio_send_advert virtual_router_id "
            "priority authentication auth_type auth_pass auth_hmac key active_key anti_replay time_window mode "
            "virtual_ipaddress virtual_ipaddress_excluded no_virtual_ipaddress promote_secondaries virtual_routes "
            "virtual_rules accept no_accept preempt_delay skip_check_adv_addr strict_mode debug notify_master "
            "notify_backup notify_fault notify_stop notify notify_master_rx_lower_pri notify_priority_changes "
            "smtp_alert kernel_rx_buf_size linkbeat_use_polling", NO_BEARING,
            "VRRP between directors: the replayed death is the database's"),
}

SECTIONS = {"global_defs": GLOBAL_DEFS, "virtual_server": VIRTUAL_SERVER, "real_server": REAL_SERVER,
            "checker": CHECKER, "vrrp_instance": VRRP_INSTANCE}


def verdict(section: str, keyword: str) -> tuple[str, str] | None:
    """(verdict, why) of a keyword in a section (a checker's block is 'checker'); None if it is not
    one of keepalived's there."""
    return SECTIONS[section].get(keyword)


def nearest(section: str, keyword: str) -> str | None:
    """The section's keyword nearest a misspelled one, or None."""
    found = difflib.get_close_matches(keyword, list(SECTIONS[section]), n=1, cutoff=0.8)
    return found[0] if found else None
