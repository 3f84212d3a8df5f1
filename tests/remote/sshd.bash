# sshd.bash — sourced by the remote tests: a throwaway OpenSSH server on a free loopback port,
# acting as the remote host. Host key, user key, sshd_config and the client's ssh_config are
# generated in a temporary folder; no system configuration is read or written (-f, -F). The
# server is stopped and the folder removed when the test exits, whatever the outcome.
# After gp_sshd_start: $GP_SSH_DIR (the folder), $GP_SSH_CONFIG (client config with the hosts
# below), $GP_SSHD_PID, $GP_SSHD_PORT, $GP_SSHD_DOWN_PORT (nothing listens there). Host aliases:
#   gptest      the server, logged in with the authorised key
#   gptest-bad  the server, with a key it does not accept
#   gptest-down a loopback port where nothing listens
#   gptest-alt  the server on a second port, only when GP_SSHD_ALT_ENV is set
# Environment for the remote shells, as a login node sets it system-wide: GP_SSHD_ENV holds
# NAME=VALUE words (sshd's SetEnv); GP_SSHD_ALT_ENV replaces them for sessions on gptest-alt.

gp_skip() {
    echo "SKIP: $*"
    exit 77
}

gp_sshd_stop() {
    if [ -n "${GP_SSHD_PID:-}" ]; then
        kill "$GP_SSHD_PID" 2>/dev/null
        wait "$GP_SSHD_PID" 2>/dev/null
        GP_SSHD_PID=
    fi
    if [ -n "${GP_SSH_DIR:-}" ] && [ -d "$GP_SSH_DIR" ]; then rm -rf "$GP_SSH_DIR"; fi
}

# The test's servers, whatever the outcome: sshd, and the Slurm cluster when one was started.
gp_test_cleanup() {
    gp_sshd_stop
    if [ "$(type -t gp_slurm_stop)" = function ]; then gp_slurm_stop; fi
}

gp_free_port() {
    # A port nobody listens on now: bind-test through bash's /dev/tcp (connect refused = free).
    local p
    for _ in $(seq 1 50); do
        p=$((20000 + RANDOM % 40000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

gp_sshd_start() {
    local sshd
    sshd=$(command -v sshd || true)
    [ -n "$sshd" ] || sshd=/usr/sbin/sshd
    [ -x "$sshd" ] || gp_skip "no sshd (install openssh-server)"
    for t in ssh ssh-keygen rsync git; do
        command -v "$t" >/dev/null || gp_skip "no $t (install it)"
    done
    GP_SSH_DIR=$(mktemp -d "${TMPDIR:-/tmp}/gp-sshd.XXXXXX")
    chmod 700 "$GP_SSH_DIR"
    trap gp_test_cleanup EXIT
    local d=$GP_SSH_DIR user
    user=$(id -un)
    ssh-keygen -q -t ed25519 -N '' -C gptest-host -f "$d/host_key" || gp_skip "ssh-keygen failed"
    ssh-keygen -q -t ed25519 -N '' -C gptest-user -f "$d/user_key"
    ssh-keygen -q -t ed25519 -N '' -C gptest-other -f "$d/other_key"
    cp "$d/user_key.pub" "$d/authorized_keys"
    chmod 600 "$d/authorized_keys"
    GP_SSHD_DOWN_PORT=$(gp_free_port) || gp_skip "no free loopback port"
    local alt_port=$GP_SSHD_DOWN_PORT
    local try
    for try in 1 2 3 4 5; do
        GP_SSHD_PORT=$(gp_free_port) || gp_skip "no free loopback port"
        if [ -n "${GP_SSHD_ALT_ENV:-}" ]; then
            alt_port=$(gp_free_port) || gp_skip "no free loopback port"
        fi
        cat >"$d/sshd_config" <<CFG
Port $GP_SSHD_PORT
ListenAddress 127.0.0.1
HostKey $d/host_key
PidFile none
AuthorizedKeysFile $d/authorized_keys
StrictModes no
UsePAM no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $user
PrintMotd no
LogLevel INFO
CFG
        [ -z "${GP_SSHD_ENV:-}" ] || echo "SetEnv $GP_SSHD_ENV" >>"$d/sshd_config"
        if [ -n "${GP_SSHD_ALT_ENV:-}" ]; then
            printf 'Port %s\nMatch LocalPort %s\n  SetEnv %s\n' "$alt_port" "$alt_port" \
                "$GP_SSHD_ALT_ENV" >>"$d/sshd_config"
        fi
        cat >"$d/ssh_config" <<CFG
Host gptest gptest-bad
  HostName 127.0.0.1
  Port $GP_SSHD_PORT
Host gptest-down
  HostName 127.0.0.1
  Port $GP_SSHD_DOWN_PORT
Host gptest-alt
  HostName 127.0.0.1
  Port $alt_port
Host gptest gptest-down gptest-alt
  IdentityFile $d/user_key
Host gptest-bad
  IdentityFile $d/other_key
Host *
  User $user
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile $d/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking accept-new
  ConnectTimeout 10
CFG
        local check
        check=$("$sshd" -t -f "$d/sshd_config" 2>&1)
        if echo "$check" | grep -q "Missing privilege separation directory"; then
            # sshd running as root insists on its (empty) privilege separation folder, normally
            # made by the init system; create it if we may, else the test cannot run here.
            local dir
            dir=$(echo "$check" | tr -d '\r' | sed -n 's/.*Missing privilege separation directory: //p')
            mkdir -p -m 0755 "$dir" 2>/dev/null || gp_skip "sshd needs $dir and it cannot be created"
            check=$("$sshd" -t -f "$d/sshd_config" 2>&1)
        fi
        [ -z "$check" ] || gp_skip "sshd rejects the test configuration: $check"
        "$sshd" -D -e -f "$d/sshd_config" 2>"$d/sshd.log" &
        GP_SSHD_PID=$!
        local i
        for i in $(seq 1 50); do
            if ! kill -0 "$GP_SSHD_PID" 2>/dev/null; then break; fi
            if ssh -F "$d/ssh_config" -o BatchMode=yes gptest true 2>"$d/probe.log"; then
                GP_SSH_CONFIG=$d/ssh_config
                export GP_SSH_CONFIG
                return 0
            fi
            sleep 0.1
        done
        if kill -0 "$GP_SSHD_PID" 2>/dev/null; then
            cat "$d/probe.log"
            gp_skip "sshd started but the test key cannot log in"
        fi
        wait "$GP_SSHD_PID" 2>/dev/null
        GP_SSHD_PID=
        grep -q "Address already in use" "$d/sshd.log" || break
    done
    cat "$d/sshd.log"
    gp_skip "sshd could not be started on loopback (log above)"
}
