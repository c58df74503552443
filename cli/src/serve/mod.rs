//! `grail serve`: the table in a browser. A local web page, bound to 127.0.0.1 on a free
//! port (or the one asked for), its page built into the binary and nothing fetched from the
//! network: play any game against bots from one seat, watch bots play, step through a
//! replay or a save, open a balance report. Each seat is sent only what it may see
//! ([`tables`]); Ctrl-C stops the server cleanly.

mod assets;
mod report;
mod routes;
pub mod tables;

use std::io::Write;
use std::sync::Arc;

use clap::Args;

use crate::content::Content;
use crate::exit::{CliResult, failure};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on, on 127.0.0.1 (default: a free one, printed).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
}

pub fn run(args: &ServeArgs, content: Content) -> CliResult {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| failure("cannot-serve", format!("cannot start the server: {e}")))?;
    runtime.block_on(serve(args.port, content))
}

async fn serve(port: u16, content: Content) -> CliResult {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| {
            failure(
                "cannot-serve",
                format!("cannot listen on 127.0.0.1:{port}: {e}"),
            )
        })?;
    let port = listener
        .local_addr()
        .map_err(|e| failure("cannot-serve", format!("cannot read the port: {e}")))?
        .port();
    let shared = routes::Shared {
        tables: Arc::new(tables::Tables::new(content)),
        port,
    };
    // Ctrl-C is caught from before the address is printed: a stop asked as soon as the
    // server says where it is still stops it cleanly.
    let stop = stop_signal()?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "grail serve: http://127.0.0.1:{port}/ (Ctrl-C stops it)"
    );
    let _ = out.flush();
    drop(out);
    // After Ctrl-C, requests under way have a moment to finish; a browser keeping its
    // connection open does not hold the server up.
    let stopping = std::sync::Arc::new(tokio::sync::Notify::new());
    let notify = stopping.clone();
    let server = axum::serve(listener, routes::router(shared)).with_graceful_shutdown(async move {
        stop.await;
        notify.notify_one();
    });
    tokio::select! {
        served = server => served
            .map_err(|e| failure("cannot-serve", format!("the server stopped: {e}")))?,
        _ = async {
            stopping.notified().await;
            tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        } => {}
    }
    eprintln!("grail serve: stopped");
    Ok(())
}

/// Resolves at Ctrl-C (SIGINT; on Unix SIGTERM too), its handler installed now.
#[cfg(unix)]
fn stop_signal() -> Result<impl Future<Output = ()>, crate::exit::CliError> {
    use tokio::signal::unix::{SignalKind, signal};
    let caught = |e: std::io::Error| failure("cannot-serve", format!("cannot catch Ctrl-C: {e}"));
    let mut interrupt = signal(SignalKind::interrupt()).map_err(caught)?;
    let mut terminate = signal(SignalKind::terminate()).map_err(caught)?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

#[cfg(not(unix))]
fn stop_signal() -> Result<impl Future<Output = ()>, crate::exit::CliError> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}
