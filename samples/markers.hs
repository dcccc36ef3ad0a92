-- markers.hs: a threaded program with user markers, written for heapscope's
-- sample data. Build with -threaded and run with +RTS -N2.
--
-- It emits user markers (traceMarkerIO, event 58) at the start of each
-- phase, one of them with a non-ASCII character ("phase é"), and user
-- messages (traceEventIO, event 19). Each phase runs workers pinned to both
-- capabilities (forkOn 0 / forkOn 1) that build and keep large structures
-- alive, so the runtime does parallel GCs across 2 capabilities.
-- Base only (Control.Concurrent, MVar, Chan).
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad (forM, forM_, replicateM_)
import Debug.Trace (traceEventIO, traceMarkerIO)

-- A binary search tree of our own, so the heap holds many constructors.
data Tree = Leaf | Node Tree !Int Int Tree

insertT :: Int -> Int -> Tree -> Tree
insertT k v Leaf = Node Leaf k v Leaf
insertT k v t@(Node l k' v' r)
  | k < k' = Node (insertT k v l) k' v' r
  | k > k' = Node l k' v' (insertT k v r)
  | otherwise = t

sizeT :: Tree -> Int
sizeT Leaf = 0
sizeT (Node l _ _ r) = sizeT l + 1 + sizeT r

sumT :: Tree -> Int
sumT Leaf = 0
sumT (Node l _ v r) = sumT l + v + sumT r

-- A pseudo-random key sequence (LCG), different per worker.
keys :: Int -> Int -> [Int]
keys seed n = take n (tail (iterate next seed))
  where
    next x = (x * 1103515245 + 12345) `mod` 2147483648

buildTree :: Int -> Int -> Tree
buildTree seed n = foldr (\k t -> insertT (k `mod` 1000003) k t) Leaf (keys seed n)

-- Phase 1: each capability builds its own tree; results come back by MVar.
treeWorker :: Int -> Int -> MVar (Int, Int) -> IO ()
treeWorker seed n out = do
  let t = buildTree seed n
  s <- evaluate (sizeT t)
  v <- evaluate (sumT t)
  putMVar out (s, v)

phaseTrees :: Int -> IO [(Int, Int)]
phaseTrees n = do
  outs <- forM [0, 1] $ \cap -> do
    mv <- newEmptyMVar
    _ <- forkOn cap (treeWorker (cap * 7919 + 17) n mv)
    return mv
  mapM takeMVar outs

-- Phase 2: a producer/consumer pipeline over a Chan, one thread per capability.
producer :: Chan (Maybe [Int]) -> Int -> Int -> IO ()
producer ch chunks len = do
  forM_ [1 .. chunks] $ \i -> writeChan ch (Just (keys i len))
  writeChan ch Nothing

consumer :: Chan (Maybe [Int]) -> MVar Int -> IO ()
consumer ch done = go 0 []
  where
    go acc kept = do
      m <- readChan ch
      case m of
        Nothing -> putMVar done (acc + length (concat kept))
        Just xs -> do
          s <- evaluate (sum xs)
          -- keep every 4th chunk alive until the end of the phase
          let kept' = if s `mod` 4 == 0 then xs : kept else kept
          go (acc + s `mod` 1000) kept'

phasePipeline :: Int -> Int -> IO Int
phasePipeline chunks len = do
  ch <- newChan
  done <- newEmptyMVar
  _ <- forkOn 1 (consumer ch done)
  _ <- forkOn 0 (producer ch chunks len)
  takeMVar done

-- Phase 3: many short-lived threads spread over both capabilities.
phaseSwarm :: Int -> Int -> IO Int
phaseSwarm threads n = do
  results <- newMVar 0
  finished <- newEmptyMVar
  forM_ [1 .. threads] $ \i ->
    forkOn (i `mod` 2) $ do
      v <- evaluate (sizeT (buildTree i n))
      modifyMVar_ results (return . (+ v))
      putMVar finished ()
  replicateM_ threads (takeMVar finished)
  readMVar results

main :: IO ()
main = do
  caps <- getNumCapabilities
  traceEventIO ("markers: running on " ++ show caps ++ " capabilities")
  traceMarkerIO "phase 1 start"
  r1 <- phaseTrees 25000
  putStrLn ("phase 1: " ++ show r1)
  traceMarkerIO "phase 2 start"
  r2 <- phasePipeline 80 2000
  putStrLn ("phase 2: " ++ show r2)
  traceMarkerIO "phase é"
  r3 <- phaseSwarm 12 4000
  putStrLn ("phase 3: " ++ show r3)
  traceEventIO "markers: done"
  traceMarkerIO "end"
