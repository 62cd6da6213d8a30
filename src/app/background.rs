//! A learner trained on another thread, one chunk at a time, reporting after each chunk so
//! the loop can show progress and stay responsive; stopping hands the learner back.

use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread::{self, JoinHandle};

/// A learner that trains in chunks on a background thread.
pub trait Chunked: Send + 'static {
    /// What one chunk reports (the new losses, a copy of the weights, ...).
    type Report: Send + 'static;
    /// True when the run has reached its end.
    fn is_done(&self) -> bool;
    /// Trains one chunk and says what changed.
    fn train_chunk(&mut self) -> Self::Report;
}

/// What the thread sends.
pub enum Progress<T: Chunked> {
    /// One more chunk done.
    Chunk(T::Report),
    /// The thread stopped (asked to, or the run ended) and hands the learner back.
    Stopped(Box<T>),
}

/// A training run on another thread; dropping it stops the thread and waits for it.
pub struct Job<T: Chunked> {
    progress: Receiver<Progress<T>>,
    stop: Sender<()>,
    handle: Option<JoinHandle<()>>,
}

impl<T: Chunked> Job<T> {
    /// Starts training `learner` until it is done or asked to stop.
    pub fn start(mut learner: T) -> Self {
        let (progress_tx, progress) = mpsc::channel();
        let (stop, stop_rx) = mpsc::channel::<()>();
        let handle = thread::spawn(move || {
            while !learner.is_done() && matches!(stop_rx.try_recv(), Err(TryRecvError::Empty)) {
                if progress_tx
                    .send(Progress::Chunk(learner.train_chunk()))
                    .is_err()
                {
                    return;
                }
            }
            let _ = progress_tx.send(Progress::Stopped(Box::new(learner)));
        });
        Self {
            progress,
            stop,
            handle: Some(handle),
        }
    }

    /// Asks the thread to stop after its current chunk; it then sends the learner back.
    pub fn request_stop(&self) {
        let _ = self.stop.send(());
    }

    /// The next report, if one is waiting.
    pub fn try_next(&self) -> Option<Progress<T>> {
        self.progress.try_recv().ok()
    }

    /// Waits for the thread to stop and returns the learner, dropping reports on the way.
    pub fn finish(mut self) -> Option<T> {
        self.request_stop();
        let learner = loop {
            match self.progress.recv() {
                Ok(Progress::Stopped(learner)) => break Some(*learner),
                Ok(Progress::Chunk(_)) => {}
                Err(_) => break None,
            }
        };
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
        learner
    }
}

impl<T: Chunked> Drop for Job<T> {
    fn drop(&mut self) {
        let _ = self.stop.send(());
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Counter {
        done: u32,
        target: u32,
    }

    impl Chunked for Counter {
        type Report = u32;
        fn is_done(&self) -> bool {
            self.done >= self.target
        }
        fn train_chunk(&mut self) -> u32 {
            self.done += 1;
            self.done
        }
    }

    #[test]
    fn a_job_reports_every_chunk_then_hands_the_learner_back() {
        let job = Job::start(Counter { done: 0, target: 5 });
        let mut reports = Vec::new();
        let learner = loop {
            match job.progress.recv().unwrap() {
                Progress::Chunk(n) => reports.push(n),
                Progress::Stopped(learner) => break learner,
            }
        };
        assert_eq!(reports, [1, 2, 3, 4, 5]);
        assert_eq!(learner.done, 5);
    }

    #[test]
    fn finishing_early_returns_the_learner_part_way() {
        let job = Job::start(Counter {
            done: 0,
            target: u32::MAX,
        });
        let learner = job.finish().unwrap();
        assert!(learner.done < u32::MAX);
    }
}
