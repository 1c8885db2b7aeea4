"""What a file in an incident's folder holds, told by its content whatever its name: the name of
the reader (imports.READERS) whose format it is, or None with what it looks like. An operator's
folder holds `sysctl-a.txt`, `client.txt`, `lb.conf` as often as the names the lab gives them."""
import json
import re

import yaml

from . import jvm_names, spring_boot, timeline, timeline_log

SYSCTL_LINE = re.compile(r"^\s*[a-z0-9_]+(?:[./][A-Za-z0-9_\-*]+)+\s*=")
KEEPALIVED = re.compile(r"^\s*(virtual_server|virtual_server_group|real_server|vrrp_instance|vrrp_script|global_defs)"
                        r"\b", re.MULTILINE)
HAPROXY_SECTION = re.compile(r"^\s*(backend|listen|frontend|defaults)\b", re.MULTILINE)
HAPROXY_SERVER = re.compile(r"^\s*server\s+\S+\s+\S+", re.MULTILINE)
CONNECTION = re.compile(r"^(jdbc:(mysql|mariadb)|mysql(\+\w+)?://|[^\s#]*@(tcp[46]?)?\()")
HIKARI = re.compile(r"^\s*(jdbcUrl|dataSource\.\w+|maximumPoolSize|connectionTimeout)\s*[=:]", re.MULTILINE)
POOL_SETTING = re.compile(r"^\s*[A-Za-z][\w.]*\s*=\s*\S")
JAVA_SECURITY = re.compile(r"^\s*(networkaddress\.cache\.|security\.provider\.\d|jdk\.(tls|certpath|security)\.)",
                           re.MULTILINE)
OPTION_GROUP = re.compile(r"^\s*\[(client|client-server|client-mariadb|mysql|mariadb-client)\]", re.MULTILINE)


WHAT = {"sysctl.txt": "a sysctl -a dump", "keepalived.conf": "a keepalived.conf", "haproxy.cfg": "an HAProxy configuration",
        "hikari.properties": "HikariCP's properties", "driver.url": "connection strings",
        "my.cnf": "a MySQL option file", "mysql2.json": "mysql2's options (JSON)", "incident.yaml": "a timeline",
        "incident.log": "a log excerpt (a timeline)", "application.properties": "a Spring Boot datasource (properties)",
        "application.yml": "a Spring Boot datasource (YAML)", "java.security": "the JDK's security properties",
        "jvm.options": "JVM flags"}


def kind(text: str) -> tuple[str | None, str]:
    """(reader name or None, what it looks like): the first format whose marks the text has."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith(("#", ";", "!"))]
    if not lines:
        return None, "empty (or only comments)"
    if "\0" in text:
        return None, "binary data"
    settings = sum(1 for line in lines if SYSCTL_LINE.match(line))
    if settings >= max(1, len(lines) // 2) and any(line.lstrip().startswith(("net.", "kernel.")) for line in lines):
        return "sysctl.txt", WHAT["sysctl.txt"]
    if KEEPALIVED.search(text):
        return "keepalived.conf", WHAT["keepalived.conf"]
    if HAPROXY_SECTION.search(text) and HAPROXY_SERVER.search(text):
        return "haproxy.cfg", WHAT["haproxy.cfg"]
    if CONNECTION.match(lines[0].strip()) and all(CONNECTION.match(line.strip()) or POOL_SETTING.match(line)
                                                  for line in lines):
        return "driver.url", WHAT["driver.url"]      # connection strings, each maybe with its pool's key=value lines
    if JAVA_SECURITY.search(text):
        return "java.security", WHAT["java.security"]
    if jvm_names.looks_like_flags(lines):
        return "jvm.options", WHAT["jvm.options"]
    if spring_boot.looks_like_properties(text):
        return "application.properties", WHAT["application.properties"]
    if spring_boot.looks_like_yaml(text):
        return "application.yml", WHAT["application.yml"]
    if HIKARI.search(text):
        return "hikari.properties", WHAT["hikari.properties"]
    if OPTION_GROUP.search(text):
        return "my.cnf", WHAT["my.cnf"]
    if _json_object(text):
        return "mysql2.json", WHAT["mysql2.json"]
    if _timeline(text):
        return "incident.yaml", WHAT["incident.yaml"]
    if timeline_log.looks_like_log(text):
        return "incident.log", WHAT["incident.log"]
    return None, _looks_like(lines)


def _json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _timeline(text: str) -> bool:
    try:
        raw = yaml.load(text, Loader=yaml.BaseLoader)
    except yaml.YAMLError:
        return False
    return isinstance(raw, dict) and any(timeline.MEANING.get(timeline.normal(str(key))) for key in raw)


def _looks_like(lines: list[str]) -> str:
    if any(CONNECTION.match(line.strip()) for line in lines):
        return ("connection strings mixed with other lines (a file of connection strings holds them, # comments and "
                "a JDBC URL's pool settings, key=value, after it)")
    if len(lines) > 1 and all(":" in line for line in lines[:5]):
        return "key: value lines, none a moment of a timeline (died, recovered, ...)"
    return f"none of the formats the lab reads (its first line: {lines[0].strip()[:60]!r})"
